"""The user's own model file (`--model FILE`), by concern: reading it exactly (`reading`, with
MiniZinc's route in `flatzinc`), and checking a solution against the file itself (`checking`).
Running it on the backends is `usermodel.py`."""
