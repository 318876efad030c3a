/*
 * pnp.engines.zombies_vs_vampires._native -- Zombies vs Vampires' random playout in C.
 *
 * CONTRACT. The Python engine (game.py, legality.py, movement.py, steps.py, walls.py) is the
 * definition of the rules V1-V15. This module is a second writing of one loop of it only,
 * ``ZombiesVsVampires.random_playout``: at every ply the whole list ``legal_moves()`` returns
 * (``Legality._gen``, in its order: each movable piece in ``Movement._sources`` order with its
 * destinations ascending, BUILD moves in candidate order, REMOVE in wall order, PMBUILD, PASS,
 * REROLL), the move ``rng.randbelow(len(list))`` of it, played as ``_apply`` plays it with the
 * turn flow (``_end_turn``, ``_begin_turn``, ``_roll_action``: the same dice from the game's RNG
 * in the same order), until the game ends. It must leave the position, both RNG states, the
 * rules fired and the counters exactly as the Python loop does; tests/test_zvv_native.py plays
 * both, game by game, and compares every field. The Python caller
 * (playout_native.py) packs the position into flat int64 arrays whose layout is named here
 * (``CFG_FIELDS``, ``STATE_FIELDS``), calls ``playout`` and writes the result back; it ends the
 * game itself (``_decide`` / ``_finish``: V12, V13, the turn cap) from the end code returned.
 * Positions or options this file does not play are refused there and played by Python.
 *
 * Sets of squares are bitsets laid out as geometry.py lays out its ints (square (r, c) is bit
 * r*W + c, W = N + 1, a guard column), in MAX_WORDS 64-bit words, so each bitset operation below
 * is the Python expression it is named after (steps.reach, Geometry.open_sides, geometry.spots).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ limits and encodings */
#define MIN_N 7                              /* geometry.py: boards of 7..26 squares a side */
#define MAX_N 26
#define MAX_BITS ((MAX_N + 1) * (MAX_N + 2))  /* W * (N + 2): every bit a shift can reach */
#define MAX_WORDS ((MAX_BITS + 63) / 64)
#define MAX_SEATS 4                          /* ZombiesVsVampires.max_players */
#define MAX_FACES 64                         /* faces of a die */
#define MAX_EXACT_STEPS 16                   /* variant exact: the path search's depth */
#define FIELD_MAX 0xFFF                      /* a move's a / b field: 12 bits (moves.py) */
#define BIG ((int64_t)1 << 60)               /* playout_native.BIG: counts stay far from overflow */

/* moves.py: move kinds, phases, die faces */
enum { MOVE = 1, BUILD, REMOVE, PMBUILD, PASS, REROLL, ROLL };
enum { PH_CHOOSE, PH_ACT, PH_BUILD, PH_OVER };
enum { F_MOVE, F_BUILD, F_PM, F_CHOICE };
#define KIND_SHIFT 24
#define A_SHIFT 12

/* the sides of a square (Geometry.open_sides: index 0..3 = E W N S) */
enum { SIDE_E, SIDE_W, SIDE_N, SIDE_S, NSIDES };

/* how the playout ended: the Python caller decides the outcome (game.py _decide / _finish) */
enum { END_NONE, END_DECIDE, END_CAP };

/* face_text: unchanged, or the size die's roll (V15 "roll size"), else the face index */
#define TEXT_UNCHANGED (-1)
#define TEXT_SIZE_DIE (-2)

/* rule points fired (GameState.fire), named for Python by RULE_NAMES */
enum { R_V3, R_V4, R_V7, R_V8, R_V9, R_V10, R_V11, R_V12, R_V14, R_V15, R_PASS,
       R_TWOSTAR_REROLL, R_HANDICAP, R_CAP, N_RULES };
static const char *RULE_NAMES[N_RULES] = {
    "V3", "V4", "V7", "V8", "V9", "V10", "V11", "V12", "V14", "V15", "pass",
    "2*-reroll", "handicap", "cap"};

/* counters (GameState.count), named by COUNTER_NAMES (moves.FH: fh0..fh3) */
enum { C_JUMPS, C_FIRST_HOME, C_FH0, N_COUNTERS = C_FH0 + MAX_SEATS };
static const char *COUNTER_NAMES[N_COUNTERS] = {
    "jumps", "first_home", "fh0", "fh1", "fh2", "fh3"};

/* cfg: the configuration (base.py _init_common), int64 each, named by CFG_FIELDS */
enum { CFG_N, CFG_PLAYERS, CFG_EXACT, CFG_TWOSTAR_REROLL, CFG_V15_CHOOSE, CFG_V15_REROLL,
       CFG_END_IMMEDIATE, CFG_HOME_ZONE, CFG_JUMP_HOME, CFG_MAX_TURNS, CFG_SAME_RNG,
       CFG_PIECES_NEEDED, CFG_SIT_OUT = CFG_PIECES_NEEDED + MAX_SEATS,
       CFG_LEN = CFG_SIT_OUT + MAX_SEATS };
static const char *CFG_NAMES[CFG_LEN] = {
    "N", "players", "exact", "twostar_reroll", "v15_choose", "v15_reroll", "end_immediate",
    "home_zone", "jump_home", "max_turns", "same_rng",
    "pieces_needed0", "pieces_needed1", "pieces_needed2", "pieces_needed3",
    "sit_out0", "sit_out1", "sit_out2", "sit_out3"};

/* state: the position (base.py), int64 each, read and written back, named by STATE_FIELDS */
enum { ST_TURN, ST_FIRST, ST_TOTAL_TURNS, ST_PHASE, ST_FACE, ST_STEPS, ST_WSIZE, ST_REROLLED,
       ST_FACE_TEXT, ST_FACE_TEXT_STEPS, ST_NEXT_SERIAL, ST_NWALLS, ST_NFIN,
       ST_SUPPLY, ST_HOME = ST_SUPPLY + 4, ST_TURNS_TAKEN = ST_HOME + MAX_SEATS,
       ST_FINISHERS = ST_TURNS_TAKEN + MAX_SEATS, ST_NPOS = ST_FINISHERS + MAX_SEATS,
       ST_LEN = ST_NPOS + MAX_SEATS };
static const char *STATE_NAMES[ST_LEN] = {
    "turn", "first", "total_turns", "phase", "face", "steps", "wsize", "rerolled",
    "face_text", "face_text_steps", "next_serial", "nwalls", "nfin",
    "supply0", "supply1", "supply2", "supply3", "home0", "home1", "home2", "home3",
    "turns_taken0", "turns_taken1", "turns_taken2", "turns_taken3",
    "finishers0", "finishers1", "finishers2", "finishers3", "npos0", "npos1", "npos2", "npos3"};

/* a face of the action die (base._face): kind, steps, and whether its text is "2*" */
enum { FACE_KIND, FACE_STEPS, FACE_IS_TWOSTAR, FACE_LEN };
/* a wall candidate (Geometry.cands): orientation (0 h, 1 v), row, column, size */
enum { CAND_O, CAND_R, CAND_C, CAND_L, CAND_LEN };

/* ------------------------------------------------------------------ bitsets */
typedef struct { uint64_t w[MAX_WORDS]; } Bits;

static inline void b_zero(Bits *x, int nw) { memset(x->w, 0, sizeof(uint64_t) * nw); }
static inline int b_test(const Bits *x, int i) { return (int)(x->w[i >> 6] >> (i & 63) & 1); }
static inline void b_set(Bits *x, int i) { x->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void b_reset(Bits *x, int i) { x->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static inline void b_flip(Bits *x, int i) { x->w[i >> 6] ^= (uint64_t)1 << (i & 63); }

static inline int b_any(const Bits *x, int nw)
{
    uint64_t acc = 0;
    for (int i = 0; i < nw; i++)
        acc |= x->w[i];
    return acc != 0;
}

/* out = x << s (0 < s < 64): bits past the last word fall off the board's far side */
static inline void b_shl(Bits *out, const Bits *x, int s, int nw)
{
    for (int i = nw - 1; i > 0; i--)
        out->w[i] = x->w[i] << s | x->w[i - 1] >> (64 - s);
    out->w[0] = x->w[0] << s;
}

/* out = x >> s (0 < s < 64): bits below square 0 fall off, as in a Python int */
static inline void b_shr(Bits *out, const Bits *x, int s, int nw)
{
    for (int i = 0; i < nw - 1; i++)
        out->w[i] = x->w[i] >> s | x->w[i + 1] << (64 - s);
    out->w[nw - 1] = x->w[nw - 1] >> s;
}

/* ------------------------------------------------------------------ the game */
typedef struct {
    /* geometry (geometry.py) */
    int N, W, nw;
    Bits board;
    /* configuration (base.py) */
    int players, exact, twostar_reroll, v15_choose, v15_reroll, end_immediate;
    int home_zone, jump_home;
    int64_t max_turns;
    int64_t pieces_needed[MAX_SEATS], sit_out[MAX_SEATS];
    Bits target[MAX_SEATS];                  /* far zone (V2) */
    Bits keep_in[MAX_SEATS];                 /* V11 "zone": the zone its pieces never leave */
    int has_keep[MAX_SEATS];
    int nfaces, face_kind[MAX_FACES], face_twostar[MAX_FACES];
    int64_t face_steps[MAX_FACES];
    int nsize, size_die[MAX_FACES];
    int ncands;
    const uint8_t *cands;                    /* CAND_LEN bytes a candidate */
    /* position */
    int npos[MAX_SEATS];
    int *pos[MAX_SEATS];                     /* per seat its pieces' squares, in order */
    Bits occ_by[MAX_SEATS], occ;
    Bits EB, NB, HP, VP;                     /* walls: geometry.py's four masks */
    Bits open[NSIDES];                       /* Geometry.open_sides(EB, NB) */
    int64_t home[MAX_SEATS], turns_taken[MAX_SEATS], supply[4];
    int finishers[MAX_SEATS], nfin;
    int turn, first, phase, face, wsize, rerolled, face_text;
    int64_t total_turns, steps, face_text_steps, next_serial;
    int *walls;                              /* candidate indices, in build order */
    int64_t *serial;                         /* their serial numbers */
    int nwalls, wall_cap;
    uint64_t rng_pick, rng_dice_own;
    uint64_t *rng_dice;                      /* &rng_pick when rng is the game's own RNG */
    /* what the playout did: rules fired and counters, each in first-touch order */
    int64_t fired[N_RULES], counted[N_COUNTERS];
    int fired_order[N_RULES], nfired, counted_order[N_COUNTERS], ncounted;
    int touched[N_COUNTERS];
    int end, overflow;
    uint32_t *moves;
    size_t moves_cap;
} Game;

/* ------------------------------------------------------------------ core.Rng */
#define GOLDEN 0x9E3779B97F4A7C15ULL

/* Rng.next64: splitmix64 */
static inline uint64_t next64(uint64_t *state)
{
    uint64_t z = (*state += GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Rng.randbelow(n), n >= 1: Lemire's multiply-shift with rejection; n == 1 draws nothing */
static inline uint64_t randbelow(uint64_t *state, uint64_t n)
{
    if (n <= 1)
        return 0;
    unsigned __int128 m = (unsigned __int128)next64(state) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t t = (0 - n) % n;            /* (2**64 - n) % n */
        while (low < t) {
            m = (unsigned __int128)next64(state) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* ------------------------------------------------------------------ GameState.fire / count */
static inline void fire(Game *g, int rule)
{
    if (!g->fired[rule])
        g->fired_order[g->nfired++] = rule;
    g->fired[rule]++;
}

static inline void count(Game *g, int key, int64_t n)
{
    if (!g->touched[key]) {
        g->touched[key] = 1;
        g->counted_order[g->ncounted++] = key;
    }
    g->counted[key] += n;
}

/* ------------------------------------------------------------------ walls (walls.py) */
/* Geometry.open_sides: the squares whose E / W / N / S side holds no wall (V5) */
static void open_sides(Game *g)
{
    int nw = g->nw;
    Bits t;
    for (int i = 0; i < nw; i++) {
        g->open[SIDE_E].w[i] = ~g->EB.w[i];
        g->open[SIDE_N].w[i] = ~g->NB.w[i];
    }
    b_shl(&t, &g->EB, 1, nw);
    for (int i = 0; i < nw; i++)
        g->open[SIDE_W].w[i] = ~t.w[i];
    b_shl(&t, &g->NB, g->W, nw);
    for (int i = 0; i < nw; i++)
        g->open[SIDE_S].w[i] = ~t.w[i];
}

/* walls.toggled: a horizontal wall on x covers grooves x + i of NB and interior lattice points
   x + W + i of HP; a vertical one grooves x + i*W of EB and points x + i*W + 1 of VP */
static void toggle_wall(Game *g, int ci)
{
    const uint8_t *c = g->cands + CAND_LEN * ci;
    int L = c[CAND_L], x = c[CAND_R] * g->W + c[CAND_C];
    if (c[CAND_O] == 0) {
        for (int i = 0; i < L; i++)
            b_flip(&g->NB, x + i);
        for (int i = 1; i < L; i++)
            b_flip(&g->HP, x + g->W + i);
    } else {
        for (int i = 0; i < L; i++)
            b_flip(&g->EB, x + i * g->W);
        for (int i = 1; i < L; i++)
            b_flip(&g->VP, x + i * g->W + 1);
    }
    open_sides(g);
}

/* V9 (geometry.spots for one candidate): none of its grooves holds a wall (no overlap) and none
   of its inner lattice points is inside a perpendicular wall (no crossing) */
static int fits(const Game *g, int ci)
{
    const uint8_t *c = g->cands + CAND_LEN * ci;
    int L = c[CAND_L], x = c[CAND_R] * g->W + c[CAND_C];
    if (c[CAND_O] == 0) {
        for (int i = 0; i < L; i++)
            if (b_test(&g->NB, x + i))
                return 0;
        for (int i = 1; i < L; i++)
            if (b_test(&g->VP, x + g->W + i))
                return 0;
    } else {
        for (int i = 0; i < L; i++)
            if (b_test(&g->EB, x + i * g->W))
                return 0;
        for (int i = 1; i < L; i++)
            if (b_test(&g->HP, x + i * g->W + 1))
                return 0;
    }
    return 1;
}

/* Walls._build (V7, V9): on the board, a serial number, one fewer in the supply */
static void build_wall(Game *g, int ci)
{
    if (g->nwalls >= g->wall_cap) {          /* never: a candidate fits only once */
        g->overflow = 1;
        return;
    }
    toggle_wall(g, ci);
    g->walls[g->nwalls] = ci;
    g->serial[g->nwalls] = g->next_serial++;
    g->nwalls++;
    g->supply[g->cands[CAND_LEN * ci + CAND_L]]--;
}

/* Walls._remove (V8, V10): off the board, back to the supply */
static void remove_wall(Game *g, int ci)
{
    int i = 0;
    while (i < g->nwalls && g->walls[i] != ci)
        i++;
    if (i == g->nwalls) {                    /* never: REMOVE moves name walls on the board */
        g->overflow = 1;
        return;
    }
    toggle_wall(g, ci);
    memmove(g->walls + i, g->walls + i + 1, sizeof(int) * (g->nwalls - i - 1));
    memmove(g->serial + i, g->serial + i + 1, sizeof(int64_t) * (g->nwalls - i - 1));
    g->nwalls--;
    g->supply[g->cands[CAND_LEN * ci + CAND_L]]++;
}

/* ------------------------------------------------------------------ movement (steps.py) */
/* One step from every square of `front`, not yet cut to the free squares: V5 a walk through an
   open side; V6 (when `jumps`, jo & open side per side) a jump over an adjacent piece of jo with
   both grooves open. steps.reach's step, e | w | n | s | (e & jE) << 1 | ... */
static void step(const Game *g, const Bits *front, const Bits *jumps, Bits *out)
{
    int nw = g->nw, W = g->W;
    Bits t, e, w, n, s;
    for (int i = 0; i < nw; i++)
        t.w[i] = front->w[i] & g->open[SIDE_E].w[i];
    b_shl(&e, &t, 1, nw);
    for (int i = 0; i < nw; i++)
        t.w[i] = front->w[i] & g->open[SIDE_W].w[i];
    b_shr(&w, &t, 1, nw);
    for (int i = 0; i < nw; i++)
        t.w[i] = front->w[i] & g->open[SIDE_N].w[i];
    b_shl(&n, &t, W, nw);
    for (int i = 0; i < nw; i++)
        t.w[i] = front->w[i] & g->open[SIDE_S].w[i];
    b_shr(&s, &t, W, nw);
    for (int i = 0; i < nw; i++)
        out->w[i] = e.w[i] | w.w[i] | n.w[i] | s.w[i];                        /* V5 */
    if (jumps == NULL)
        return;
    Bits j;                                                                   /* V6 */
    for (int i = 0; i < nw; i++)
        t.w[i] = e.w[i] & jumps[SIDE_E].w[i];
    b_shl(&j, &t, 1, nw);
    for (int i = 0; i < nw; i++)
        out->w[i] |= j.w[i];
    for (int i = 0; i < nw; i++)
        t.w[i] = w.w[i] & jumps[SIDE_W].w[i];
    b_shr(&j, &t, 1, nw);
    for (int i = 0; i < nw; i++)
        out->w[i] |= j.w[i];
    for (int i = 0; i < nw; i++)
        t.w[i] = n.w[i] & jumps[SIDE_N].w[i];
    b_shl(&j, &t, W, nw);
    for (int i = 0; i < nw; i++)
        out->w[i] |= j.w[i];
    for (int i = 0; i < nw; i++)
        t.w[i] = s.w[i] & jumps[SIDE_S].w[i];
    b_shr(&j, &t, W, nw);
    for (int i = 0; i < nw; i++)
        out->w[i] |= j.w[i];
}

/* One step with the V11 "zone" rule: from a square of `zone` only into it (zone NULL: off) */
static void zone_step(const Game *g, const Bits *front, const Bits *jumps, const Bits *zone,
                      Bits *out)
{
    int nw = g->nw;
    Bits in, rest, a;
    int home = 0;
    if (zone != NULL)
        for (int i = 0; i < nw; i++) {
            in.w[i] = front->w[i] & zone->w[i];
            home |= in.w[i] != 0;
        }
    if (!home) {
        step(g, front, jumps, out);
        return;
    }
    for (int i = 0; i < nw; i++)
        rest.w[i] = front->w[i] & ~zone->w[i];
    step(g, &in, jumps, &a);
    step(g, &rest, jumps, out);
    for (int i = 0; i < nw; i++)
        out->w[i] |= a.w[i] & zone->w[i];
}

/* The squares the piece on s can end on with 1 to k steps (V4 "up to": a BFS), steps.reach for
   one origin: `free` the empty squares (s itself is occupied, so never a destination), jumps
   per side (NULL: walking only), zone the V11 rule (NULL: off). Movement._bfs / _reach. */
static void reach(const Game *g, int s, int64_t k, const Bits *jumps, const Bits *zone,
                  const Bits *empty, Bits *seen)
{
    int nw = g->nw;
    Bits front, nxt, free = *empty;
    b_zero(&front, nw);
    b_set(&front, s);
    b_reset(&free, s);
    Bits start = free;
    for (int64_t i = 0; i < k; i++) {
        zone_step(g, &front, jumps, zone, &nxt);
        uint64_t any = 0;
        for (int j = 0; j < nw; j++) {
            nxt.w[j] &= free.w[j];
            any |= nxt.w[j];
        }
        if (!any)
            break;
        for (int j = 0; j < nw; j++)
            free.w[j] ^= nxt.w[j];
        front = nxt;
    }
    for (int j = 0; j < nw; j++)
        seen->w[j] = start.w[j] ^ free.w[j];
}

/* Movement._jumpable: the pieces that may be jumped over (V6; option jump_home off: not the
   pieces safe in their far zone), as jo & open side, per side */
static void jump_masks(const Game *g, Bits jumps[NSIDES])
{
    int nw = g->nw;
    Bits jo = g->occ;
    if (!g->jump_home)
        for (int p = 0; p < g->players; p++)
            for (int i = 0; i < nw; i++)
                jo.w[i] &= ~(g->occ_by[p].w[i] & g->target[p].w[i]);
    for (int d = 0; d < NSIDES; d++)
        for (int i = 0; i < nw; i++)
            jumps[d].w[i] = jo.w[i] & g->open[d].w[i];
}

static inline const Bits *zone_of(const Game *g, int p)
{
    return g->has_keep[p] ? &g->keep_in[p] : NULL;
}

/* Movement.movable: V11 "locked" (the default): a piece home never moves again */
static inline int movable(const Game *g, int p, int s)
{
    return g->home_zone || !b_test(&g->target[p], s);
}

/* a move into the list, bounds-checked against the buffer */
static inline void emit(Game *g, size_t *n, uint32_t move)
{
    if (*n >= g->moves_cap) {
        g->overflow = 1;
        return;
    }
    g->moves[(*n)++] = move;
}

/* every square of `x`, ascending, as moves base | square */
static void emit_bits(Game *g, size_t *n, const Bits *x, uint32_t base)
{
    for (int i = 0; i < g->nw; i++) {
        uint64_t w = x->w[i];
        while (w) {
            int t = __builtin_ctzll(w);
            emit(g, n, base | (uint32_t)(i * 64 + t));
            w &= w - 1;
        }
    }
}

/* ---- variant exact (Movement._exact_paths): simple paths of exactly k steps, or ending on the
   step that enters the far zone */
typedef struct {
    const Game *g;
    Bits jumps[NSIDES];                      /* the origin vacated: never jumped over */
    Bits empty;                              /* empty squares, the origin included */
    const Bits *zone, *target;
    Bits path, dests;
} ExactSearch;

/* Movement._stepper's succ(cur): one step (walk or jump) from cur */
static void exact_succ(const ExactSearch *x, int cur, Bits *out)
{
    const Game *g = x->g;
    Bits f;
    b_zero(&f, g->nw);
    b_set(&f, cur);
    zone_step(g, &f, x->jumps, x->zone, out);
    for (int i = 0; i < g->nw; i++)
        out->w[i] &= x->empty.w[i];
    b_reset(out, cur);
}

static void exact_dfs(ExactSearch *x, int cur, int64_t left)
{
    const Game *g = x->g;
    Bits succ;
    exact_succ(x, cur, &succ);
    for (int i = 0; i < g->nw; i++) {
        uint64_t w = succ.w[i];
        while (w) {
            int t = i * 64 + __builtin_ctzll(w);
            w &= w - 1;
            if (b_test(&x->path, t))
                continue;
            if (left == 1 || (b_test(x->target, t) && !b_test(x->target, cur)))
                b_set(&x->dests, t);
            if (left > 1) {
                b_set(&x->path, t);
                exact_dfs(x, t, left - 1);
                b_reset(&x->path, t);
            }
        }
    }
}

/* Movement._move_moves: the MOVE moves of seat p with up to (exactly) k steps (V4-V6, V11) */
static void move_moves(Game *g, int p, int64_t k, size_t *n)
{
    int nw = g->nw;
    Bits jumps[NSIDES], empty, seen;
    jump_masks(g, jumps);
    for (int i = 0; i < nw; i++)
        empty.w[i] = g->board.w[i] & ~g->occ.w[i];
    for (int i = 0; i < g->npos[p]; i++) {
        int s = g->pos[p][i];
        if (!movable(g, p, s))
            continue;
        uint32_t base = (uint32_t)MOVE << KIND_SHIFT | (uint32_t)s << A_SHIFT;
        if (g->exact) {
            ExactSearch x;
            x.g = g;
            for (int d = 0; d < NSIDES; d++) {
                x.jumps[d] = jumps[d];
                b_reset(&x.jumps[d], s);
            }
            x.empty = empty;
            b_set(&x.empty, s);
            x.zone = zone_of(g, p);
            x.target = &g->target[p];
            b_zero(&x.path, nw);
            b_set(&x.path, s);
            b_zero(&x.dests, nw);
            exact_dfs(&x, s, k);
            emit_bits(g, n, &x.dests, base);
            continue;
        }
        Bits own[NSIDES];                    /* the piece's own square is vacated (V5/V6) */
        for (int d = 0; d < NSIDES; d++) {
            own[d] = jumps[d];
            b_reset(&own[d], s);
        }
        reach(g, s, k, own, zone_of(g, p), &empty, &seen);
        emit_bits(g, n, &seen, base);
    }
}

/* Movement._needs_jump (statistics): the move a>b of up to k steps cannot be made by walking */
static int needs_jump(const Game *g, int p, int a, int b, int64_t k)
{
    int64_t dr = a / g->W - b / g->W, dc = a % g->W - b % g->W;
    if ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc) > k)
        return 1;
    Bits empty, seen;
    for (int i = 0; i < g->nw; i++)
        empty.w[i] = g->board.w[i] & ~g->occ.w[i];
    reach(g, a, k, NULL, zone_of(g, p), &empty, &seen);
    return !b_test(&seen, b);
}

/* Walls._build_moves: every legal spot of `size` (V9, V10), in candidate order */
static void build_moves(Game *g, int size, size_t *n)
{
    if (size < 1 || size > 3 || g->supply[size] <= 0)
        return;                                                               /* V10 */
    for (int ci = 0; ci < g->ncands; ci++)
        if (g->cands[CAND_LEN * ci + CAND_L] == size && fits(g, ci))
            emit(g, n, (uint32_t)BUILD << KIND_SHIFT | (uint32_t)ci << A_SHIFT);
}

/* Legality._move_steps: how many steps a move may take now (0: none) */
static int64_t move_steps(const Game *g)
{
    if (g->phase != PH_ACT)
        return 0;
    if (g->face == F_MOVE)
        return g->steps;
    return g->face == F_CHOICE ? 2 : 0;      /* 2* = choice: move 2, remove or build */
}

/* Legality._gen: the list legal_moves() returns; its length */
static size_t gen(Game *g)
{
    size_t n = 0;
    if (g->phase == PH_CHOOSE) {                                              /* V15 */
        emit(g, &n, (uint32_t)ROLL << KIND_SHIFT);
        emit(g, &n, (uint32_t)ROLL << KIND_SHIFT | 1);
        return n;
    }
    if (g->phase == PH_ACT && g->face == F_MOVE && !g->v15_reroll) {
        move_moves(g, g->turn, g->steps, &n);                                 /* V4 */
        if (!n)
            emit(g, &n, (uint32_t)PASS << KIND_SHIFT);                        /* V14 */
        return n;
    }
    /* Legality._menu */
    int64_t k = 0;
    int build = 0, pm = 0, reroll = 0;
    if (g->phase == PH_BUILD) {              /* after choosing to build under +/- */
        build = 1;
    } else if (g->phase == PH_ACT) {
        k = move_steps(g);                                                    /* V4 */
        build = g->face == F_BUILD;                                           /* V7 */
        pm = g->face == F_PM || g->face == F_CHOICE;                          /* V8 */
        reroll = g->v15_reroll && g->home[g->turn] > 0 && !g->rerolled;       /* V15 */
    }
    if (k)
        move_moves(g, g->turn, k, &n);
    if (build)
        build_moves(g, g->wsize, &n);
    if (pm) {
        for (int i = 0; i < g->nwalls; i++)                                   /* V8 */
            emit(g, &n, (uint32_t)REMOVE << KIND_SHIFT | (uint32_t)g->walls[i] << A_SHIFT);
        emit(g, &n, (uint32_t)PMBUILD << KIND_SHIFT);
    }
    if (!n)
        emit(g, &n, (uint32_t)PASS << KIND_SHIFT);                            /* V14 */
    if (reroll)
        emit(g, &n, (uint32_t)REROLL << KIND_SHIFT);                          /* V15 */
    return n;
}

/* ------------------------------------------------------------------ the turn (game.py) */
static void roll_size(Game *g)
{
    g->wsize = g->size_die[randbelow(g->rng_dice, (uint64_t)g->nsize)];
}

/* _roll_action, V3: roll the action die and set up the decision */
static void roll_action(Game *g)
{
    g->phase = PH_ACT;
    fire(g, R_V3);
    int i;
    for (;;) {
        i = (int)randbelow(g->rng_dice, (uint64_t)g->nfaces);
        if (g->face_twostar[i] && g->twostar_reroll) {
            fire(g, R_TWOSTAR_REROLL);
            continue;
        }
        break;
    }
    g->face_text = i;
    g->face = g->face_kind[i];
    if (g->face == F_MOVE) {
        g->steps = g->face_steps[i];
    } else if (g->face == F_BUILD) {
        fire(g, R_V7);
        roll_size(g);
    }
}

/* _begin_turn; returns 1 when the seat gives this turn up (option handicap): the caller ends it */
static int begin_turn(Game *g)
{
    int p = g->turn;
    g->total_turns++;
    g->turns_taken[p]++;
    g->rerolled = 0;
    g->face = -1;
    g->steps = 0;
    g->wsize = 0;
    if (g->total_turns > g->max_turns) {     /* never-ending guard: Python writes the outcome */
        fire(g, R_CAP);
        g->end = END_CAP;
        return 0;
    }
    if (g->turns_taken[p] <= g->sit_out[p]) {
        fire(g, R_HANDICAP);
        return 1;
    }
    if (g->v15_choose && g->home[p]) {
        g->phase = PH_CHOOSE;                                                 /* V15 */
        return 0;
    }
    roll_action(g);
    return 0;
}

/* p among the first n finishers */
static int is_finisher_before(const Game *g, int p, int n)
{
    for (int i = 0; i < n; i++)
        if (g->finishers[i] == p)
            return 1;
    return 0;
}

static int is_finisher(const Game *g, int p)
{
    for (int i = 0; i < g->nfin; i++)
        if (g->finishers[i] == p)
            return 1;
    return 0;
}

/* _end_turn (V12, V13): a seat with every piece home finishes; the game ends at once (V12) or
   when the round is over; else the next seat's turn (a turn given up is ended here in turn) */
static void end_turn(Game *g)
{
    for (;;) {
        int p = g->turn;
        if (g->home[p] == g->pieces_needed[p] && !is_finisher(g, p)) {
            g->finishers[g->nfin++] = p;
            fire(g, R_V12);
            if (g->end_immediate) {
                g->end = END_DECIDE;
                return;
            }
        }
        int nxt = (p + 1) % g->players;
        if (g->nfin && nxt == g->first) {    /* round over: V12/V13 */
            g->end = END_DECIDE;
            return;
        }
        g->turn = nxt;
        if (!begin_turn(g))
            return;
    }
}

/* _move_piece: seat p's piece on a goes to b (V4), and gets home if b is in its far zone (V11) */
static void move_piece(Game *g, int p, int a, int b)
{
    int i = 0;
    while (i < g->npos[p] && g->pos[p][i] != a)
        i++;
    if (i == g->npos[p]) {                   /* never: MOVE moves start on the seat's pieces */
        g->overflow = 1;
        return;
    }
    g->pos[p][i] = b;
    b_flip(&g->occ_by[p], a);
    b_flip(&g->occ_by[p], b);
    b_flip(&g->occ, a);
    b_flip(&g->occ, b);
    fire(g, R_V4);
    if (b_test(&g->target[p], b) && !b_test(&g->target[p], a)) {
        int any = 0;
        for (int q = 0; q < g->players; q++)
            any |= g->home[q] != 0;
        if (!any)
            count(g, C_FIRST_HOME, g->total_turns);
        if (!g->home[p])
            count(g, C_FH0 + p, g->turns_taken[p]);
        g->home[p]++;
        fire(g, R_V11);
    }
}

/* _apply: play one move of the list (the turn's automatic steps included) */
static void apply(Game *g, uint32_t move)
{
    int kind = (int)(move >> KIND_SHIFT);
    int a = (int)(move >> A_SHIFT & FIELD_MAX), b = (int)(move & FIELD_MAX);
    int p = g->turn;
    switch (kind) {
    case MOVE:
        if (needs_jump(g, p, a, b, move_steps(g)))                            /* V6 figure */
            count(g, C_JUMPS, 1);
        move_piece(g, p, a, b);
        end_turn(g);
        break;
    case BUILD:
        build_wall(g, a);
        fire(g, R_V9);
        end_turn(g);
        break;
    case REMOVE:
        remove_wall(g, a);
        fire(g, R_V8);
        fire(g, R_V10);
        end_turn(g);
        break;
    case PMBUILD:
        fire(g, R_V8);
        roll_size(g);
        g->phase = PH_BUILD;
        break;
    case PASS:
        fire(g, (g->phase == PH_BUILD || g->face == F_BUILD) ? R_V14 : R_PASS);
        end_turn(g);
        break;
    case REROLL:
        fire(g, R_V15);
        g->rerolled = 1;
        roll_action(g);
        break;
    case ROLL:
        fire(g, R_V15);
        if (a == 0 && b == 0) {
            roll_action(g);
        } else {                             /* the 1-2-3 die: move that many steps */
            g->phase = PH_ACT;
            g->face = F_MOVE;
            g->steps = g->size_die[randbelow(g->rng_dice, (uint64_t)g->nsize)];
            g->face_text = TEXT_SIZE_DIE;
            g->face_text_steps = g->steps;
        }
        break;
    default:
        g->overflow = 1;
    }
}

/* ------------------------------------------------------------------ Python interface */
typedef struct {
    Py_buffer cfg, faces, size_die, cands, masks, state, pieces, walls, rng;
} Buffers;

static int64_t rd(const Py_buffer *b, Py_ssize_t i)
{
    int64_t v;
    memcpy(&v, (const char *)b->buf + 8 * i, 8);
    return v;
}

static void wr(Py_buffer *b, Py_ssize_t i, int64_t v)
{
    memcpy((char *)b->buf + 8 * i, &v, 8);
}

static int bad(const char *what)
{
    PyErr_Format(PyExc_ValueError, "zvv native playout: %s", what);
    return -1;
}

static int in_range(int64_t v, int64_t lo, int64_t hi) { return lo <= v && v <= hi; }

/* the configuration from cfg, faces, size_die, cands and masks; -1 and an exception if any
   value is out of the ranges this file plays */
static int load_config(Game *g, Buffers *B)
{
    if (B->cfg.len != 8 * CFG_LEN)
        return bad("cfg: wrong length");
    int64_t N = rd(&B->cfg, CFG_N), players = rd(&B->cfg, CFG_PLAYERS);
    if (!in_range(N, MIN_N, MAX_N) || !in_range(players, 1, MAX_SEATS))
        return bad("board size or players out of range");
    g->N = (int)N;
    g->W = g->N + 1;
    g->nw = (g->W * (g->N + 2) + 63) / 64;
    g->players = (int)players;
    g->exact = rd(&B->cfg, CFG_EXACT) != 0;
    g->twostar_reroll = rd(&B->cfg, CFG_TWOSTAR_REROLL) != 0;
    g->v15_choose = rd(&B->cfg, CFG_V15_CHOOSE) != 0;
    g->v15_reroll = rd(&B->cfg, CFG_V15_REROLL) != 0;
    g->end_immediate = rd(&B->cfg, CFG_END_IMMEDIATE) != 0;
    g->home_zone = rd(&B->cfg, CFG_HOME_ZONE) != 0;
    g->jump_home = rd(&B->cfg, CFG_JUMP_HOME) != 0;
    g->max_turns = rd(&B->cfg, CFG_MAX_TURNS);
    for (int p = 0; p < MAX_SEATS; p++) {
        g->pieces_needed[p] = rd(&B->cfg, CFG_PIECES_NEEDED + p);
        g->sit_out[p] = rd(&B->cfg, CFG_SIT_OUT + p);
        if (!in_range(g->pieces_needed[p], -BIG, BIG) || !in_range(g->sit_out[p], -BIG, BIG))
            return bad("cfg: a number out of range");
    }
    if (!in_range(g->max_turns, -BIG, BIG))
        return bad("cfg: max_turns out of range");
    b_zero(&g->board, MAX_WORDS);
    for (int r = 0; r < g->N; r++)
        for (int c = 0; c < g->N; c++)
            b_set(&g->board, r * g->W + c);
    /* the action die (base._face) and the size die (V3, V4, V7) */
    if (B->faces.len % (8 * FACE_LEN) || B->faces.len == 0 || B->faces.len > 8 * FACE_LEN * MAX_FACES)
        return bad("faces: wrong length");
    g->nfaces = (int)(B->faces.len / (8 * FACE_LEN));
    int plays = 0;
    for (int i = 0; i < g->nfaces; i++) {
        int64_t kind = rd(&B->faces, FACE_LEN * i + FACE_KIND);
        int64_t steps = rd(&B->faces, FACE_LEN * i + FACE_STEPS);
        if (!in_range(kind, F_MOVE, F_CHOICE) || !in_range(steps, 0, (int64_t)1 << 40))
            return bad("faces: a face out of range");
        if (g->exact && steps > MAX_EXACT_STEPS)
            return bad("faces: too many steps for the exact variant");
        g->face_kind[i] = (int)kind;
        g->face_steps[i] = steps;
        g->face_twostar[i] = rd(&B->faces, FACE_LEN * i + FACE_IS_TWOSTAR) != 0;
        plays |= !(g->face_twostar[i] && g->twostar_reroll);
    }
    if (!plays)
        return bad("faces: every face is re-rolled");
    if (B->size_die.len % 8 || B->size_die.len == 0 || B->size_die.len > 8 * MAX_FACES)
        return bad("size die: wrong length");
    g->nsize = (int)(B->size_die.len / 8);
    for (int i = 0; i < g->nsize; i++) {
        int64_t v = rd(&B->size_die, i);
        if (!in_range(v, 1, 3))
            return bad("size die: a face out of range");
        g->size_die[i] = (int)v;
    }
    /* the wall candidates (Geometry._wall_candidates): each inside the board */
    if (B->cands.len % CAND_LEN || B->cands.len / CAND_LEN > FIELD_MAX)
        return bad("cands: wrong length");
    g->ncands = (int)(B->cands.len / CAND_LEN);
    /* a copy: the playout runs without the GIL, and cands may be a bytearray another thread
       changes meanwhile (checked candidates must stay checked) */
    uint8_t *cands = malloc((size_t)B->cands.len + 1);
    if (cands == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(cands, B->cands.buf, (size_t)B->cands.len);
    g->cands = cands;
    for (int ci = 0; ci < g->ncands; ci++) {
        const uint8_t *c = g->cands + CAND_LEN * ci;
        int o = c[CAND_O], r = c[CAND_R], col = c[CAND_C], L = c[CAND_L];
        int ok = o <= 1 && L >= 1 && L <= 3 && r < g->N && col < g->N &&
                 (o == 0 ? r < g->N - 1 && col + L <= g->N : col < g->N - 1 && r + L <= g->N);
        if (!ok)
            return bad("cands: a candidate off the board");
    }
    /* per seat: its far zone and the V11 zone its pieces keep to, nw words each */
    Py_ssize_t mb = 8 * (Py_ssize_t)g->nw;
    if (B->masks.len != 2 * mb * g->players)
        return bad("masks: wrong length");
    for (int p = 0; p < g->players; p++) {
        b_zero(&g->target[p], MAX_WORDS);
        b_zero(&g->keep_in[p], MAX_WORDS);
        memcpy(g->target[p].w, (const char *)B->masks.buf + 2 * mb * p, mb);
        memcpy(g->keep_in[p].w, (const char *)B->masks.buf + 2 * mb * p + mb, mb);
        g->has_keep[p] = b_any(&g->keep_in[p], g->nw);
        for (int i = 0; i < g->nw; i++)
            if ((g->target[p].w[i] | g->keep_in[p].w[i]) & ~g->board.w[i])
                return bad("masks: a zone off the board");
    }
    return 0;
}

/* the position from state, pieces, walls and rng */
static int load_state(Game *g, Buffers *B, int *storage)
{
    if (B->state.len != 8 * ST_LEN)
        return bad("state: wrong length");
    int64_t turn = rd(&B->state, ST_TURN), first = rd(&B->state, ST_FIRST);
    int64_t phase = rd(&B->state, ST_PHASE), face = rd(&B->state, ST_FACE);
    int64_t wsize = rd(&B->state, ST_WSIZE), nfin = rd(&B->state, ST_NFIN);
    if (!in_range(turn, 0, g->players - 1) || !in_range(first, 0, g->players - 1) ||
        !in_range(phase, PH_CHOOSE, PH_BUILD) || !in_range(face, -1, F_CHOICE) ||
        !in_range(wsize, 0, 3) || !in_range(nfin, 0, g->players))
        return bad("state: a value out of range");
    g->turn = (int)turn;
    g->first = (int)first;
    g->phase = (int)phase;
    g->face = (int)face;
    g->wsize = (int)wsize;
    g->nfin = (int)nfin;
    g->total_turns = rd(&B->state, ST_TOTAL_TURNS);
    g->steps = rd(&B->state, ST_STEPS);
    if (g->exact && g->steps > MAX_EXACT_STEPS)
        return bad("state: too many steps for the exact variant");
    g->rerolled = rd(&B->state, ST_REROLLED) != 0;
    g->face_text = TEXT_UNCHANGED;
    g->face_text_steps = 0;
    g->next_serial = rd(&B->state, ST_NEXT_SERIAL);
    for (int L = 0; L < 4; L++)
        g->supply[L] = rd(&B->state, ST_SUPPLY + L);
    for (int p = 0; p < MAX_SEATS; p++) {
        g->home[p] = rd(&B->state, ST_HOME + p);
        g->turns_taken[p] = rd(&B->state, ST_TURNS_TAKEN + p);
    }
    /* the counts a playout adds to: within playout_native._small's range, so no int64
       overflows (a playout adds at most one a ply) */
    int ok = in_range(g->total_turns, -BIG, BIG) && in_range(g->steps, -BIG, BIG) &&
             in_range(g->next_serial, -BIG, BIG);
    for (int i = 0; i < 4; i++)
        ok &= in_range(g->supply[i], -BIG, BIG) && in_range(g->home[i], -BIG, BIG) &&
              in_range(g->turns_taken[i], -BIG, BIG);
    if (!ok)
        return bad("state: a number out of range");
    for (int i = 0; i < g->nfin; i++) {
        int64_t f = rd(&B->state, ST_FINISHERS + i);
        if (!in_range(f, 0, g->players - 1))
            return bad("state: a finisher out of range");
        g->finishers[i] = (int)f;
        if (is_finisher_before(g, (int)f, i))      /* end_turn appends up to `players` seats */
            return bad("state: a finisher listed twice");
    }
    /* the pieces: on the board, one a square */
    Py_ssize_t total = 0;
    b_zero(&g->occ, MAX_WORDS);
    for (int p = 0; p < g->players; p++) {
        int64_t np = rd(&B->state, ST_NPOS + p);
        if (!in_range(np, 0, (int64_t)g->N * g->N))
            return bad("state: a piece count out of range");
        g->npos[p] = (int)np;
        total += np;
    }
    if (total > (Py_ssize_t)g->N * g->N || B->pieces.len != 8 * total)
        return bad("pieces: wrong length");
    Py_ssize_t at = 0;
    for (int p = 0; p < g->players; p++) {
        g->pos[p] = storage + at;
        b_zero(&g->occ_by[p], MAX_WORDS);
        for (int i = 0; i < g->npos[p]; i++, at++) {
            int64_t s = rd(&B->pieces, at);
            if (!in_range(s, 0, MAX_BITS - 1) || !b_test(&g->board, (int)s) || b_test(&g->occ, (int)s))
                return bad("pieces: a piece off the board or on another");
            storage[at] = (int)s;
            b_set(&g->occ_by[p], (int)s);
            b_set(&g->occ, (int)s);
        }
    }
    /* the walls, built again in order (each must fit: V9) */
    g->wall_cap = g->ncands;
    if (B->walls.len != 16 * (Py_ssize_t)g->wall_cap)
        return bad("walls: wrong capacity");
    int64_t nwalls = rd(&B->state, ST_NWALLS);
    if (!in_range(nwalls, 0, g->wall_cap))
        return bad("state: too many walls");
    b_zero(&g->EB, MAX_WORDS);
    b_zero(&g->NB, MAX_WORDS);
    b_zero(&g->HP, MAX_WORDS);
    b_zero(&g->VP, MAX_WORDS);
    open_sides(g);
    g->nwalls = 0;
    for (int i = 0; i < nwalls; i++) {
        int64_t ci = rd(&B->walls, 2 * i);
        if (!in_range(ci, 0, g->ncands - 1) || !fits(g, (int)ci))
            return bad("walls: a wall that is no candidate or does not fit");
        toggle_wall(g, (int)ci);
        g->walls[i] = (int)ci;
        g->serial[i] = rd(&B->walls, 2 * i + 1);
        g->nwalls++;
    }
    /* the two RNGs: the pick's and the dice's (the game's own; one when they are the same) */
    if (B->rng.len != 16)
        return bad("rng: two states");
    memcpy(&g->rng_pick, B->rng.buf, 8);
    memcpy(&g->rng_dice_own, (const char *)B->rng.buf + 8, 8);
    g->rng_dice = rd(&B->cfg, CFG_SAME_RNG) ? &g->rng_pick : &g->rng_dice_own;
    return 0;
}

static void store_state(const Game *g, Buffers *B)
{
    wr(&B->state, ST_TURN, g->turn);
    wr(&B->state, ST_TOTAL_TURNS, g->total_turns);
    wr(&B->state, ST_PHASE, g->phase);
    wr(&B->state, ST_FACE, g->face);
    wr(&B->state, ST_STEPS, g->steps);
    wr(&B->state, ST_WSIZE, g->wsize);
    wr(&B->state, ST_REROLLED, g->rerolled);
    wr(&B->state, ST_FACE_TEXT, g->face_text);
    wr(&B->state, ST_FACE_TEXT_STEPS, g->face_text_steps);
    wr(&B->state, ST_NEXT_SERIAL, g->next_serial);
    wr(&B->state, ST_NWALLS, g->nwalls);
    wr(&B->state, ST_NFIN, g->nfin);
    for (int L = 0; L < 4; L++)
        wr(&B->state, ST_SUPPLY + L, g->supply[L]);
    for (int p = 0; p < MAX_SEATS; p++) {
        wr(&B->state, ST_HOME + p, g->home[p]);
        wr(&B->state, ST_TURNS_TAKEN + p, g->turns_taken[p]);
    }
    for (int i = 0; i < g->nfin; i++)
        wr(&B->state, ST_FINISHERS + i, g->finishers[i]);
    Py_ssize_t at = 0;
    for (int p = 0; p < g->players; p++)
        for (int i = 0; i < g->npos[p]; i++)
            wr(&B->pieces, at++, g->pos[p][i]);
    for (int i = 0; i < g->nwalls; i++) {
        wr(&B->walls, 2 * i, g->walls[i]);
        wr(&B->walls, 2 * i + 1, g->serial[i]);
    }
    memcpy(B->rng.buf, &g->rng_pick, 8);
    memcpy((char *)B->rng.buf + 8, &g->rng_dice_own, 8);
}

/* ((index, amount), ...) of the first n indices of `order`, in that order (first touch first) */
static PyObject *pairs(const int *order, const int64_t *amounts, int n)
{
    PyObject *out = PyTuple_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *pair = Py_BuildValue("(iL)", order[i], (long long)amounts[order[i]]);
        if (pair == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* ((rule index, times fired), ...) then ((counter index, amount), ...), first touch first */
static PyObject *record(const Game *g)
{
    PyObject *fired = pairs(g->fired_order, g->fired, g->nfired);
    if (fired == NULL)
        return NULL;
    PyObject *counted = pairs(g->counted_order, g->counted, g->ncounted);
    if (counted == NULL) {
        Py_DECREF(fired);
        return NULL;
    }
    return Py_BuildValue("(NN)", fired, counted);
}

static void release(Buffers *B)
{
    Py_buffer *all[] = {&B->cfg, &B->faces, &B->size_die, &B->cands, &B->masks, &B->state,
                        &B->pieces, &B->walls, &B->rng};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (all[i]->obj != NULL)
            PyBuffer_Release(all[i]);
}

PyDoc_STRVAR(playout_doc,
"playout(cfg, faces, size_die, cands, masks, state, pieces, walls, rng)\n"
"--\n\n"
"Play the game to its end by uniform random play (ZombiesVsVampires.random_playout).\n"
"cfg, faces, size_die: int64 arrays (CFG_FIELDS; kind, steps, is-2* a face; sizes);\n"
"cands: bytes, (o, r, c, L) a candidate; masks: per seat its far zone and V11 zone as\n"
"little-endian words; state (STATE_FIELDS), pieces, walls ((candidate, serial) pairs,\n"
"capacity one a candidate): int64 arrays, written back; rng: uint64 array (pick, dice).\n"
"Returns (plies, end code, fired, counted): END_DECIDE / END_CAP / 0 and the rules\n"
"fired and counters added as (index, n) pairs in first-touch order.");

static PyObject *py_playout(PyObject *self, PyObject *args)
{
    (void)self;
    Buffers B;
    memset(&B, 0, sizeof(B));
    Game *g = NULL;
    int *storage = NULL;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*w*w*w*w*:playout", &B.cfg, &B.faces, &B.size_die,
                          &B.cands, &B.masks, &B.state, &B.pieces, &B.walls, &B.rng))
        goto done;
    g = calloc(1, sizeof(Game));
    if (g == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (load_config(g, &B) < 0)
        goto done;
    /* buffers sized by the board: pieces, walls, and the longest list a ply can make (every
       piece of a seat to every square, every candidate, every wall, the few others) */
    size_t squares = (size_t)g->N * g->N;
    storage = malloc(sizeof(int) * (squares + 1));
    g->walls = malloc(sizeof(int) * ((size_t)g->ncands + 1));
    g->serial = malloc(sizeof(int64_t) * ((size_t)g->ncands + 1));
    g->moves_cap = squares * squares + 2 * (size_t)g->ncands + 8;
    g->moves = malloc(sizeof(uint32_t) * g->moves_cap);
    if (storage == NULL || g->walls == NULL || g->serial == NULL || g->moves == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (load_state(g, &B, storage) < 0)
        goto done;
    long long plies = 0;
    Py_BEGIN_ALLOW_THREADS
    while (!g->end && !g->overflow) {
        plies++;
        size_t n = gen(g);
        if (g->overflow)
            break;
        apply(g, g->moves[randbelow(&g->rng_pick, (uint64_t)n)]);
    }
    Py_END_ALLOW_THREADS
    if (g->overflow) {
        bad("internal bound reached (a bug: the position is left unchanged)");
        goto done;
    }
    store_state(g, &B);
    PyObject *rec = record(g);
    if (rec != NULL)
        result = Py_BuildValue("(LiN)", plies, g->end, rec);
done:
    release(&B);
    if (g != NULL) {
        free(g->walls);
        free(g->serial);
        free(g->moves);
        free((void *)g->cands);
    }
    free(g);
    free(storage);
    return result;
}

static PyMethodDef methods[] = {
    {"playout", py_playout, METH_VARARGS, playout_doc},
    {NULL, NULL, 0, NULL},
};

static PyObject *names(const char **list, int n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *s = PyUnicode_FromString(list[i]);
        if (s == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

static int add_names(PyObject *m, const char *attr, const char **list, int n)
{
    PyObject *t = names(list, n);
    if (t == NULL)
        return -1;
    if (PyModule_AddObject(m, attr, t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "Zombies vs Vampires' random playout in C (the Python engine is the definition; "
    "tests/test_zvv_native.py checks they play the same games).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (add_names(m, "RULES", RULE_NAMES, N_RULES) < 0 ||
        add_names(m, "COUNTERS", COUNTER_NAMES, N_COUNTERS) < 0 ||
        add_names(m, "CFG_FIELDS", CFG_NAMES, CFG_LEN) < 0 ||
        add_names(m, "STATE_FIELDS", STATE_NAMES, ST_LEN) < 0 ||
        PyModule_AddIntConstant(m, "END_DECIDE", END_DECIDE) < 0 ||
        PyModule_AddIntConstant(m, "END_CAP", END_CAP) < 0 ||
        PyModule_AddIntConstant(m, "TEXT_UNCHANGED", TEXT_UNCHANGED) < 0 ||
        PyModule_AddIntConstant(m, "TEXT_SIZE_DIE", TEXT_SIZE_DIE) < 0 ||
        PyModule_AddIntConstant(m, "MIN_N", MIN_N) < 0 ||
        PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 ||
        PyModule_AddIntConstant(m, "MAX_EXACT_STEPS", MAX_EXACT_STEPS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
