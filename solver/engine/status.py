"""What the engine's compiled loops return, and the slots of a search's counters array.

The loops (:mod:`.search`, :mod:`.restarts`, :mod:`.beam`, :mod:`.shortest`) keep all their state in
numpy arrays and return to the Python driver with one of the status codes below; the
driver reads and writes the counters between turns.
"""

# what a compiled loop returns
RUNNING = 0     # the node budget of the turn is spent
WON = 1         # a won state was reached (the stack holds the line)
EXHAUSTED = 2   # every move from the root was searched
GROW = 3        # the table (or the dominance multimap) must grow before the loop resumes

# a depth-first or restart run's counters (an int64 array of COUNTERS slots)
C_NODES = 0        # nodes generated
C_DEPTH = 1        # the depth the loop stopped at
C_STORED = 2       # states this run stored in the shared table
C_CUT = 3          # states cut off at the depth limit (no proof of loss any more)
C_MAXDEPTH = 4     # the deepest depth reached
C_RESTART = 5      # restart runs: the number of the current restart
C_SPENT = 6        # restart runs: nodes spent in the current restart
C_RNG = 7          # restart runs: the xorshift generator's state
C_PRUNED = 8       # new states skipped because a finished state dominates them
C_DOMINATORS = 9   # rows this run added to the dominance multimap
C_SEEN = 10        # beam runs: keys in the beam's own seen set
COUNTERS = 11
