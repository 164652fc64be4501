* free-format MPS: OBJSENSE MAX, a RANGES row, a free column, an objective constant (RHS of the N row: -4 means +4)
NAME ranged
OBJSENSE
    MAX
ROWS
 N profit
 L cap
 G band
 E link
COLUMNS
 a profit 3 cap 1
 a band 1 link -1
 b profit 2 cap 1
 b band -1
 f profit -1 link 1
RHS
 RHS cap 6.5 band -2
 RHS profit -4
RANGES
 RNG band 3.5
BOUNDS
 FR BND f
ENDATA
