"""Transposition table: open addressing over two numpy arrays of one length.

``keys`` (``uint64``) holds each stored state's 64-bit key (0 = empty slot; a
key of 0 is stored as 1, a tiny, documented loss); ``flags`` (``uint8``) says
which of up to seven searches (move orders, see ``engine.search``) have
entered the state, and whether one of them has finished it. The table only
grows on request of the Python driver (:func:`grown`), up to the memory bound;
the engine never evicts, so a state in the table was really seen, which keeps
``lost`` verdicts exact.

A game's key is either an exact packing of the state (Pyramid) or a 64-bit
hash of the canonical state: then two distinct states match with probability
2**-64 per pair, and for a search of 10**8 states the chance of any false
match is below 10**-3. We accept this (as fc-solve and Solvitaire accept their
hash-based caches) and say so in README.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

MAX_LOAD = 0.5  # grow past this fill: probing stays short
FINISHED = np.uint8(128)   # bits 0-6: search 0..6 has entered the state
MAX_SEARCHES = 7
BYTES_PER_SLOT = 9
KEYS_AHEAD = 16   # children whose keys a run makes, and whose slots it loads (expect), before the first is searched
# A key's low bits may hold a dominance field (contract: ``key_dominance``): where probing
# starts ignores these many low bits, so that the keys of one position with other fields
# share a home, and a probe for one passes the others
MAX_DOMINANCE_BITS = 10

# _slot, visit, finish, is_finished, mark_finished, dominated and add_dominator are inlined
# into the engine's compiled loops: without a signature they are compiled only there (and
# come back with its cache), so a warm start loads nothing for them.


def new_table(slots: int) -> tuple[np.ndarray, np.ndarray]:
    assert slots & (slots - 1) == 0, "table size must be a power of two"
    return np.zeros(slots, dtype=np.uint64), np.zeros(slots, dtype=np.uint8)


@njit(inline="always")
def home(slots, key):
    """Where probing for ``key`` starts in an array of ``slots`` (a power of two) entries,
    whatever its :data:`MAX_DOMINANCE_BITS` low bits. Fibonacci hashing spreads keys
    whose low bits are alike."""
    return (((key >> np.uint64(MAX_DOMINANCE_BITS)) * np.uint64(11400714819323198485)) >> np.uint64(20)) \
        & np.uint64(slots - 1)


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the processor to bring ``array[index]`` into the cache, without waiting for it
    (LLVM's prefetch: a read, kept in every cache level). A hint only: nothing changes."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = builder.bitcast(cgutils.get_item_pointer(context, builder, array_type, data, [args[1]]),
                                  ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        # declared through llvmlite, which mangles the name for its kind of pointers
        prefetch = builder.module.declare_intrinsic(
            "llvm.prefetch", (pointer.type,), ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]))
        builder.call(prefetch, [pointer, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(array, index), codegen


@njit(inline="always")
def expect(keys, values, key):
    """Start loading the slot where a probe for the stored ``key`` begins (in ``keys`` and
    the array of values beside it: a table's flags, a private table's stamps), so that a
    probe made later finds it in the cache: a probe of a table far larger than the caches
    waits on memory, and it is most of a node's time when the probe waits alone."""
    slot = home(keys.shape[0], key)
    prefetch(keys, slot)
    prefetch(values, slot)


@njit(inline="always")
def entry_key(key, transient, state):
    """The key ``state`` is stored under (:func:`stored_key` of the game's ``key``), or 0
    for a state the game calls transient, which is never stored."""
    return np.uint64(0) if transient(state) else stored_key(key(state))


@njit(inline="always")
def expect_group(dominators, group):
    """:func:`expect` for the multimap row where a probe for ``group`` begins."""
    prefetch(dominators[home(dominators.shape[0], group)], 0)


@njit(inline="always")
def _slot(keys, key):
    """The slot holding ``key``, or the empty slot where it would go."""
    mask = np.uint64(keys.shape[0] - 1)
    slot = home(keys.shape[0], key)
    while True:
        here = keys[slot]
        if here == 0 or here == key:
            return slot
        slot = (slot + np.uint64(1)) & mask


@njit(inline="always")
def stored_key(key):
    """``key`` as the table stores it: 0 marks an empty slot, so a key 0 is kept as 1
    (the runs' stacks then use 0 for a state that is not stored at all)."""
    return key if key != 0 else np.uint64(1)


@njit(inline="always")
def visit(keys, flags, key, own, field_bits):
    """Search ``own`` (flag 1, 2, 4 ... 64) reaches a state: 2 if the state is new (now
    stored), 1 if only other searches have entered it and none has finished it
    (this one expands it too), 0 if it is to be skipped.

    With ``field_bits`` (the game's ``key_dominance``), a key's low ``field_bits`` bits are
    a dominance field, and a new state is also skipped when a stored key equal above
    them, with a field at most its own, is finished: that state can win wherever this
    one can (as with the dominance multimap, only a finished state counts). The probe
    passes every such key before it reaches ``key``'s slot or a free one (they share a
    home)."""
    key = stored_key(key)
    if field_bits != 0:
        shift = np.uint64(field_bits)
        field = (np.uint64(1) << shift) - np.uint64(1)
        mask = np.uint64(keys.shape[0] - 1)
        slot = home(keys.shape[0], key)
        while True:
            here = keys[slot]
            if here == 0 or here == key:
                break
            if (here >> shift) == (key >> shift) and (here & field) <= (key & field) and flags[slot] & FINISHED:
                return 0
            slot = (slot + np.uint64(1)) & mask
    else:
        slot = _slot(keys, key)
    if keys[slot] == 0:
        keys[slot] = key
        flags[slot] = own
        return 2
    if flags[slot] & (FINISHED | own):
        return 0
    flags[slot] |= own
    return 1


@njit(inline="always")
def finish(keys, flags, key):
    """Every move from the state has been searched; True if it was not finished before."""
    key = stored_key(key)
    slot = _slot(keys, key)
    if keys[slot] != 0 and not flags[slot] & FINISHED:
        flags[slot] |= FINISHED
        return True
    return False


@njit(inline="always")
def is_finished(keys, flags, key):
    key = stored_key(key)
    slot = _slot(keys, key)
    return keys[slot] != 0 and (flags[slot] & FINISHED) != 0


@njit(inline="always")
def mark_finished(keys, flags, key):
    """Mark a state finished, storing it if it is new: 2 if it was new, 1 if it was
    stored but not finished, 0 if it was finished already (:func:`visit` with the
    finished flag for the searcher)."""
    return visit(keys, flags, key, FINISHED, 0)


# Dominance (see engine.contract): finished states by group, a multimap of (group, vector)
# rows, each row one 16-byte pair so that a probe touches one cache line. It grows on its
# own (the driver doubles it past MAX_LOAD), not with the table: few states are finished
# with a group, so sized as the table it was mostly empty, and probing it missed the
# cache. It holds at most one row per finished state, so it is never longer than the
# table. Group 0 is an empty row.
def new_dominators(slots: int) -> np.ndarray:
    assert slots & (slots - 1) == 0, "the multimap's size must be a power of two"
    return np.zeros((slots, 2), dtype=np.uint64)


LOW_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
BORROW_BITS = np.uint64(0x1010101010101010)


@njit(inline="always")
def _bytes_at_most(a, b):
    """Every byte of ``a`` (each below 16) is at most the same byte of ``b``: b + 16 - a
    per byte keeps its 16 bit exactly then (no borrow crosses into the next byte)."""
    return (((b | BORROW_BITS) - a) & BORROW_BITS) == BORROW_BITS


@njit(inline="always")
def _fields_at_most(a, b):
    """Every 4-bit field of ``a`` is at most the same field of ``b`` (the even and the odd
    fields each spread one to a byte, compared all at once: it runs on every new state)."""
    return (_bytes_at_most(a & LOW_NIBBLES, b & LOW_NIBBLES)
            and _bytes_at_most((a >> np.uint64(4)) & LOW_NIBBLES, (b >> np.uint64(4)) & LOW_NIBBLES))


@njit(inline="always")
def _scan(dominators, group, vector):
    """(True, row) when a finished state of ``group`` has a vector at most ``vector``,
    else (False, the free row that ends the probe)."""
    mask = np.uint64(dominators.shape[0] - 1)
    row = home(dominators.shape[0], group)
    while dominators[row, 0] != 0:
        if dominators[row, 0] == group and _fields_at_most(dominators[row, 1], vector):
            return True, row
        row = (row + np.uint64(1)) & mask
    return False, row


@njit(inline="always")
def dominated(dominators, group, vector):
    """A finished state of ``group`` has a vector at most ``vector``."""
    return _scan(dominators, group, vector)[0]


@njit(inline="always")
def add_dominator(dominators, group, vector):
    """Keep a finished state's vector, unless one at most it is kept already (then every
    state it would dominate is dominated anyway); True if a row was added."""
    found, row = _scan(dominators, group, vector)
    if found:
        return False
    dominators[row, 0] = group
    dominators[row, 1] = vector
    return True


@njit(types.void(types.uint64[:, ::1], types.uint64[:, ::1]), cache=True)
def _rehash_dominators(old, dominators):
    for i in range(old.shape[0]):
        if old[i, 0] != 0:
            add_dominator(dominators, old[i, 0], old[i, 1])


def grown_dominators(dominators: np.ndarray) -> np.ndarray:
    bigger = new_dominators(dominators.shape[0] * 2)
    _rehash_dominators(dominators, bigger)
    return bigger


@njit(cache=True)
def enter(keys, flags, key, own):
    """:func:`visit`, for the Python driver (the root states)."""
    return visit(keys, flags, key, own, 0)


@njit([types.void(types.uint64[::1], values, types.uint64[::1], values)
       for values in (types.uint8[::1], types.int32[::1])], cache=True)
def rehash(old_keys, old_values, keys, values):
    """Insert every key of a table into a bigger one, with the value beside it (the
    flags here, a state's index in ``engine.shortest``)."""
    for i in range(old_keys.shape[0]):
        if old_keys[i] != 0:
            slot = _slot(keys, old_keys[i])
            keys[slot] = old_keys[i]
            values[slot] = old_values[i]


def grown(table: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    bigger = new_table(table[0].shape[0] * 2)
    rehash(table[0], table[1], bigger[0], bigger[1])
    return bigger
