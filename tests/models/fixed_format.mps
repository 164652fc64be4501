* fixed-format MPS: a small MILP, general integer y, continuous x, MI and UP bounds
NAME          FIXEDMIP
ROWS
 N  COST
 G  LIM1
 L  LIM2
 E  MYEQN
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    Y         COST               2.0   LIM1               1.0
    Y         LIM2               1.0
    MARKER                 'MARKER'                 'INTEND'
    X         COST               1.0   LIM1               1.0
    X         MYEQN             -1.0
    Z         COST              -1.5   MYEQN              1.0
RHS
    RHS       LIM1               2.5   LIM2               4.0
    RHS       MYEQN              7.0
BOUNDS
 UP BND       X                  4.0
 MI BND       Z
 UP BND       Z                 20.0
 UP BND       Y                  3.0
ENDATA
