"""What every native search shares: bit tricks, the symmetries of the square, one deadline and one
result type. Each module is small and imports nothing from the puzzles, so any search can use it."""
