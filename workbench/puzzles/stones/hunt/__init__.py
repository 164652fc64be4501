"""Record hunt for stepping stones, on the method behind the published best-known boards
(J.-C. Meyrignac's beam for Al Zimmermann's 2022 contest; the ideas, in our own code).

Why each part:
- One beam serves every n up to `nmax`: ones are placed lazily, one at a time, on a cell that touches
  no number yet (so no earlier sum changes), next to the number that needs it. The beam keeps the
  best board per number of ones used, so one run gives a record for every n <= nmax.
- Children are ranked by a lexicographic score: ones still in hand, then how many distinct sums
  above the last value the empty cells offer, how many cells carry such a sum (a sum equal to the
  last value counts while ones remain), the small sums, a random tie-break. Restarts recombine the
  keys with random coefficients (ones in hand stay first).
- The beam is a hash table of prime size near the width, indexed by a Zobrist hash canonical under
  the 8 symmetries about the 2; on a collision the higher score stays. That removes duplicate
  boards and thins the beam at random in one step; every surviving board is expanded.
- A placement filter for new ones: none at offsets from an existing one that the published record
  boards never show (see forbidden_offsets).
- Post-processing: the best board is cut back to its first M numbers and the beam re-run from there.
- Our addition, the lookahead beam (half the hunt's worker time): a narrow beam whose children are
  ranked by the exact kernel's best value with one more one in hand. It sees record boards from
  about 10 numbers in, where the counting keys see nothing until 20 to 30 (docs/notes/stones-record.md).

Where each part lives: beam.py (the counting beam, compiled), lookahead.py (the lookahead beam and
the exhaustive ending, on the exact kernel), sweep.py (the class sweep), plan.py (the jobs, the
records, the plan that picks the next job), store.py (the JSON store of best boards), run.py (the
hunt on the task layer's one windowed loop, and the `hunt` method), __main__.py (`python -m
workbench.puzzles.stones.hunt N`).
"""
