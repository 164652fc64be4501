* free MPS: RANGES on E rows (R < 0: [rhs + R, rhs]; R > 0: [rhs, rhs + R]) and on an L row
NAME rangedeq
ROWS
 N cost
 E e1
 E e2
 L l1
COLUMNS
 x cost 1 e1 1
 x l1 1
 y cost -2 e1 1
 y e2 1
 z cost 0.5 e2 -1
 z l1 1
RHS
 RHS e1 5 e2 1
 RHS l1 8
RANGES
 RNG e1 -1.5 e2 2.25
 RNG l1 5
BOUNDS
 UP BND y 6
 UP BND z 10
ENDATA
