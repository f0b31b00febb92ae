"""Layout geometry and the legality of touching a position, shared by the engine and policies
so that both agree on what may be replaced.

Hot helpers take whole arrays plus a seat index rather than a row view: in Numba a view passed
to a called function costs a reference-count round trip, several times the work done here."""

from simulator.jit import hot

from . import codes as K


@hot
def can_replace_nb(up, seat, p, ri):
    """May ``seat`` put a new card at its position p (``up`` = public face-up flags)?"""
    if up[seat, p] and ri[K.R_REPLACE_FACE_UP] == 0:
        return False
    if up[seat, p] and ri[K.R_LOCK_FACE_UP_COLUMNS] != 0:
        cols = ri[K.R_COLS]
        other = p + cols if p < cols else p - cols
        if up[seat, other]:
            return False
    return True
