*SENSE:Maximize
NAME          pulpmodel
ROWS
 N  OBJ
 L  C1
COLUMNS
    x         C1         1.000000000000e+00
    x         OBJ        1.000000000000e+00
    y         C1         1.000000000000e+00
    y         OBJ        2.000000000000e+00
RHS
    RHS       C1         4.000000000000e+00
BOUNDS
 LO BND       x          1.000000000000e+00
 UP BND       x          3.000000000000e+00
 LO BND       y          5.000000000000e-01
 UP BND       y          2.000000000000e+00
ENDATA
