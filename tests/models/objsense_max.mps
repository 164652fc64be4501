* OBJSENSE MAX with integer columns (binary BV and general UI)
NAME objsense
OBJSENSE
    MAX
ROWS
 N obj
 L w
COLUMNS
 MARKER 'MARKER' 'INTORG'
 p obj 7 w 3
 q obj 4 w 2
 MARKER 'MARKER' 'INTEND'
 r obj 1.5 w 1
RHS
 RHS w 10.5
BOUNDS
 BV BND p
 UI BND q 3
 UP BND r 2.25
ENDATA
