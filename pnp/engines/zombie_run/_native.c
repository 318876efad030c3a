/* Zombie! Run for Your Lives!: the compiled random playout (issue 13, speed).

   CONTRACT. The Python engine (pnp/engines/zombie_run/: rules.py, turns.py, legality.py,
   playout.py) is the definition of the rules. ``random_plies(game, rng)`` plays what
   ``Playout._random_plies(rng)`` plays, and leaves what it leaves: at every ply the whole list
   of legal moves in ``_generate``'s order (cards in the order CPython iterates ``set(hand)``,
   per card the seats ascending, normal plays before specials), its move
   ``rng.randbelow(len(list))`` (splitmix64 + Lemire's multiply-shift with rejection, as
   pnp.engines.core.Rng), the move applied as ``_apply`` / ``_place`` / ``_begin_turn`` /
   ``_draw`` apply it (the Z13 reshuffle is deck.fast_shuffle: BLAKE2b-512 keys, a stable sort),
   the same position, both RNGs (``rng`` and the game's own, which may be the same object), the
   same ``rules_fired`` and ``counters`` (new keys in the order Python inserts them), the same
   outcome (made by the game's own ``_finish``), ``_seen`` (the repetition guard) included.
   tests/test_zombie_run_native.py replays games both ways and compares them field by field.

   ``random_plies`` returns the plies played, or None when it does not support the position
   (a deck larger than its arrays, a table wider than 64 bits, more than 7 seats, values of
   unexpected types, masks out of step with the tables...): then nothing was changed and the
   caller plays in Python. It never guesses.

   Card types (deck.py): 0..S-1 the items, S..2S-1 the zombies with a symbol, R = 2S the
   symbol-less zombie (Z14). A table is a 64-bit mask (rules.py): bit t for an item or a zombie
   with a symbol, and the symbol-less zombies a unary count from bit R up. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SEATS 7                         /* rules.SEATS: at most 7 players */
#define SEAT_MASK 0x7Fu                 /* the bits of the seat masks */
#define MAX_TYPES 63                    /* card types: 2S + 1, each a bit of a 64-bit table */
#define TABLE_BITS 64
#define MAX_CARDS 256                   /* cards in play: deck + discard + hands + tables */
#define MAX_MOVES (MAX_TYPES * SEATS + 1)
#define CIRCULATION 6                   /* turns.CIRCULATION: the repetition guard's bound */
#define GAMMA 0x9E3779B97F4A7C15ULL     /* splitmix64's step (Rng.next64) */

/* move kinds (moves.py): a move is kind << 16 | type << 8 | seat */
enum { PLAY = 1, SPECIAL = 2, DISCARD_HAND = 3, PASS = 4, DISCARD = 5 };
enum { PH_LIVING = 0, PH_ZOMBIE = 1 };

/* rules fired during play (GameState.fire), added to rules_fired in the order they first fired;
   Z3, Z4, Z9 and Z11 are added at the end, as _random_plies adds them */
enum { EV_Z14, EV_Z7, EV_Z8, EV_Z10, EV_Z6, EV_Z9_DISCARD, EV_PASS, EV_Z13, EV_Z13_EMPTY,
       EV_CAP, EV_REPETITION, N_EVENTS };
static const char *const EVENT_NAMES[N_EVENTS] = {
    "Z14", "Z7", "Z8", "Z10", "Z6", "Z9-discard", "pass", "Z13", "Z13-empty", "cap",
    "repetition"};
enum { END_Z3, END_Z4, END_Z9, END_Z11, N_END };
static const char *const END_NAMES[N_END] = {"Z3", "Z4", "Z9", "Z11"};

/* how the game ended (the arguments of the game's _finish) */
enum { OVER_NO, OVER_Z7, OVER_Z10, OVER_CAP, OVER_REPETITION };

typedef struct {
    int n;
    uint8_t card[MAX_CARDS];
} Pile;                                 /* a Python list of card types; the last is the top */

typedef struct {
    /* the rules' constants (rules.Rules) */
    int players, S, R, NT;
    uint64_t item_mask;                 /* IM */
    int full[MAX_TYPES];                /* FULL: the bit set when a table cannot take t (Z5) */
    int twin[MAX_TYPES];                /* TWIN: the bit of the card t cancels (Z4) */
    long long win_items, lose_zombies, max_turns, rep_limit, redraw;
    /* the position */
    Pile deck, discard, hands[SEATS];
    uint64_t tables[SEATS];
    int alive[SEATS], living, turn, phase, special_used, z6_used;
    long long turns;
    unsigned acc[MAX_TYPES];            /* _acc: per type, the living seats that can take it */
    unsigned iok, zok, live;            /* _iok, _zok (Z12), _live */
    PyObject *seen;                     /* _seen (a new reference; a new dict when it changes) */
    /* the RNGs: pick is rng's state, draw the game's (the same variable when rng is game.rng) */
    uint64_t pick_state, game_state;
    uint64_t *pick, *draw;
    /* the outcome, for _finish */
    int over, winner;
    long long repeated;
    /* tallies for rules_fired and counters */
    long long fired[N_EVENTS], end[N_END], onto[SEATS];
    int first[N_EVENTS], nfired;
    int zombified, reshuffled;
} Game;

/* ------------------------------------------------------------------ interned names */
static PyObject *S_players, *S_S, *S_ROACH, *S_FULL, *S_TWIN, *S_win_items, *S_lose_zombies,
    *S_max_turns, *S_rep_limit, *S_options, *S_redraw, *S_deck, *S_discard, *S_hands,
    *S_tables, *S_alive, *S_living, *S_turn, *S_phase, *S_special_used, *S_z6_used, *S_turns,
    *S_outcome, *S_acc, *S_iok, *S_zok, *S_live, *S_seen, *S_rng, *S_state, *S_seed,
    *S_rules_fired, *S_counters, *S_saved, *S_last_survivor;
static PyObject *EVENT_KEYS[N_EVENTS], *END_KEYS[N_END], *ZT_KEYS[SEATS];
static int set_order_ok;                /* set by the self-check at import */
static PyTypeObject *counter_type;      /* collections.Counter */

/* ------------------------------------------------------------------ the RNG (core.Rng) */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t next64(uint64_t *state)          /* Rng.next64 */
{
    *state += GAMMA;
    return mix64(*state);
}

/* Rng.randbelow(n), n >= 1: Lemire's multiply-shift, rejecting the low products below
   (2**64 - n) % n; randbelow(1) draws nothing */
static unsigned randbelow(uint64_t *state, unsigned n)
{
    if (n <= 1)
        return 0;
    unsigned __int128 m = (unsigned __int128)next64(state) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = (0 - (uint64_t)n) % n;
        while (low < threshold) {
            m = (unsigned __int128)next64(state) * n;
            low = (uint64_t)m;
        }
    }
    return (unsigned)(m >> 64);
}

/* ------------------------------------------------------------------ the shuffle (Z13) */
/* deck.fast_shuffle: one draw seeds BLAKE2b-512; block i is BLAKE2b(seed as 8 bytes + i as 2
   bytes, little-endian), each block 16 little-endian 32-bit keys; the cards are sorted by key,
   equal keys in their old order. */
static const uint64_t BLAKE2B_IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
static const uint8_t BLAKE2B_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};
#define BLAKE2B_OUT 64                  /* digest bytes (blake2b(digest_size=64)) */
#define SHUFFLE_MESSAGE 10              /* the seed's 8 bytes and the block's 2 */
#define KEYS_PER_BLOCK (BLAKE2B_OUT / 4)

static uint64_t rotr64(uint64_t x, int k) { return (x >> k) | (x << (64 - k)); }

#define BLAKE2B_G(a, b, c, d, x, y)                                     \
    do {                                                                \
        a = a + b + (x); d = rotr64(d ^ a, 32);                         \
        c = c + d;       b = rotr64(b ^ c, 24);                         \
        a = a + b + (y); d = rotr64(d ^ a, 16);                         \
        c = c + d;       b = rotr64(b ^ c, 63);                         \
    } while (0)

/* BLAKE2b-512 of the one-block message (seed, index): 8 + 2 bytes, unkeyed */
static void blake2b_block(uint64_t seed, unsigned index, uint64_t out[8])
{
    uint64_t m[16] = {seed, index & 0xFFFFu};
    uint64_t v[16];
    uint64_t h[8];
    memcpy(h, BLAKE2B_IV, sizeof h);
    h[0] ^= 0x01010000ULL ^ BLAKE2B_OUT;          /* depth 1, fanout 1, no key, 64 bytes */
    memcpy(v, h, sizeof h);
    memcpy(v + 8, BLAKE2B_IV, sizeof h);
    v[12] ^= SHUFFLE_MESSAGE;                     /* bytes compressed */
    v[14] = ~v[14];                               /* the last block */
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = BLAKE2B_SIGMA[r];
        BLAKE2B_G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        BLAKE2B_G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        BLAKE2B_G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        BLAKE2B_G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        BLAKE2B_G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        BLAKE2B_G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        BLAKE2B_G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        BLAKE2B_G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        out[i] = h[i] ^ v[i] ^ v[i + 8];
}

/* sort ascending (bottom-up merge sort, n <= MAX_CARDS); the sort keys are distinct */
static void sort_u64(uint64_t *a, int n)
{
    uint64_t tmp[MAX_CARDS];
    uint64_t *src = a, *dst = tmp;
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = src[i] <= src[j] ? src[i++] : src[j++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        uint64_t *t = src; src = dst; dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof *a);
}

static void fast_shuffle(uint64_t *state, Pile *pile)
{
    int n = pile->n;
    if (n < 2)                                    /* nothing drawn */
        return;
    uint64_t seed = next64(state);
    uint64_t order[MAX_CARDS];                    /* key << 32 | old index */
    for (int block = 0; block * KEYS_PER_BLOCK < n; block++) {
        uint64_t digest[8];
        blake2b_block(seed, (unsigned)block, digest);
        for (int j = 0; j < KEYS_PER_BLOCK && block * KEYS_PER_BLOCK + j < n; j++) {
            uint64_t key = (uint32_t)(digest[j / 2] >> (32 * (j % 2)));
            int i = block * KEYS_PER_BLOCK + j;
            order[i] = key << 32 | (uint64_t)i;
        }
    }
    sort_u64(order, n);
    uint8_t old[MAX_CARDS];
    memcpy(old, pile->card, (size_t)n);
    for (int i = 0; i < n; i++)
        pile->card[i] = old[order[i] & 0xFFFFFFFFu];
}

/* ------------------------------------------------------------------ set(hand)'s order */
/* _generate walks ``set(hand)``: CPython 3's set of small ints (hash(t) == t), built by adding
   the hand's cards one by one (set_add_entry: linear probes, then perturbed jumps; the table
   grows 8 -> 32 -> 128 slots), iterated slot by slot. The import self-check compares this with
   real sets (set_order_ok) and the tests compare it again. */
#define SET_MINSIZE 8
#define SET_MAXSIZE 128                 /* 64 distinct small ints never grow a table past it */
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

typedef struct {
    uint64_t used[SET_MAXSIZE / 64];    /* a bit per slot holding a key */
    uint8_t key[SET_MAXSIZE];
    size_t mask;                        /* slots - 1 */
} SmallIntSet;

static int slot_used(const SmallIntSet *set, size_t i) { return set->used[i / 64] >> (i % 64) & 1; }

static void slot_take(SmallIntSet *set, size_t i, int key)
{
    set->used[i / 64] |= 1ULL << (i % 64);
    set->key[i] = (uint8_t)key;
}

/* set_insert_clean: a key known absent, into a table without dummies (a resize) */
static void set_insert_clean(SmallIntSet *set, int key)
{
    size_t mask = set->mask, perturb = (size_t)key, i = (size_t)key & mask;
    for (;;) {
        size_t probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        for (size_t slot = i; slot <= i + probes; slot++)
            if (!slot_used(set, slot)) {
                slot_take(set, slot, key);
                return;
            }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* set_table_resize(set, used * 4): the smallest power of two above it, the old slots'
   keys inserted again in slot order */
static void set_resize(SmallIntSet *set, size_t used)
{
    SmallIntSet old = *set;
    size_t size = SET_MINSIZE;
    while (size <= used * 4)
        size <<= 1;
    memset(set->used, 0, sizeof set->used);
    set->mask = size - 1;
    for (size_t w = 0; w < SET_MAXSIZE / 64; w++)
        for (uint64_t bits = old.used[w]; bits; bits &= bits - 1)
            set_insert_clean(set, old.key[w * 64 + (size_t)__builtin_ctzll(bits)]);
}

/* the distinct cards of hand[0..n) in set iteration order; returns how many (cards < 64) */
static int set_order(const uint8_t *hand, int n, uint8_t *out)
{
    SmallIntSet set = {.used = {0}, .mask = SET_MINSIZE - 1};
    size_t fill = 0;
    for (int c = 0; c < n; c++) {               /* set_add_entry */
        int key = hand[c];
        size_t mask = set.mask, perturb = (size_t)key, i = (size_t)key & mask, slot;
        for (;;) {
            size_t probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
            for (slot = i; slot <= i + probes; slot++) {
                if (!slot_used(&set, slot))
                    goto unused;
                if (set.key[slot] == key)
                    goto present;
            }
            perturb >>= PERTURB_SHIFT;
            i = (i * 5 + 1 + perturb) & mask;
        }
    unused:
        slot_take(&set, slot, key);
        if (++fill * 5 >= mask * 3)
            set_resize(&set, fill);
    present:;
    }
    int count = 0;
    for (size_t w = 0; w < SET_MAXSIZE / 64; w++)                /* slots in order */
        for (uint64_t bits = set.used[w]; bits; bits &= bits - 1)
            out[count++] = set.key[w * 64 + (size_t)__builtin_ctzll(bits)];
    return count;
}

/* ------------------------------------------------------------------ piles */
static void pile_push(Pile *p, int card) { p->card[p->n++] = (uint8_t)card; }
static int pile_pop(Pile *p) { return p->card[--p->n]; }

static void pile_remove(Pile *p, int card)        /* list.remove: the first one */
{
    for (int i = 0; i < p->n; i++)
        if (p->card[i] == card) {
            memmove(p->card + i, p->card + i + 1, (size_t)(p->n - i - 1));
            p->n--;
            return;
        }
}

static void pile_extend(Pile *p, const Pile *from)
{
    memcpy(p->card + p->n, from->card, (size_t)from->n);
    p->n += from->n;
}

static int popcount(uint64_t x) { return __builtin_popcountll(x); }
static int items_on(const Game *g, uint64_t tab) { return popcount(tab & g->item_mask); }
static int zombies_on(const Game *g, uint64_t tab) { return popcount(tab >> g->S); }  /* Z8 */
static int bit_of(uint64_t tab, int bit) { return (int)(tab >> bit & 1); }

static void fire(Game *g, int event)              /* GameState.fire */
{
    if (!g->fired[event])
        g->first[event] = g->nfired++;
    g->fired[event]++;
}

static void finish(Game *g, int how, int winner)  /* _finish: the first ending stands */
{
    if (!g->over) {
        g->over = how;
        g->winner = winner;
    }
}

/* ------------------------------------------------------------------ draws (Z3, Z9, Z13) */
/* _draw: k cards for p; Z13 reshuffles the discard pile into the empty deck; with both empty
   nothing more is drawn */
static void draw(Game *g, int p, long long k)
{
    for (long long i = 0; i < k; i++) {
        if (!g->deck.n) {
            if (!g->discard.n) {
                fire(g, EV_Z13_EMPTY);
                break;
            }
            pile_extend(&g->deck, &g->discard);                 /* Z13 */
            g->discard.n = 0;
            g->reshuffled = 1;
            fast_shuffle(g->draw, &g->deck);
            fire(g, EV_Z13);
        }
        pile_push(&g->hands[p], pile_pop(&g->deck));
    }
}

/* ------------------------------------------------------------------ the repetition guard */
static PyObject *sorted_tuple(const Pile *p)
{
    uint8_t cards[MAX_CARDS];
    int counts[MAX_TYPES] = {0}, n = 0;
    for (int i = 0; i < p->n; i++)
        counts[p->card[i]]++;
    for (int t = 0; t < MAX_TYPES; t++)
        for (int c = 0; c < counts[t]; c++)
            cards[n++] = (uint8_t)t;
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple && i < n; i++) {
        PyObject *v = PyLong_FromLong(cards[i]);
        if (!v) {
            Py_CLEAR(tuple);
            break;
        }
        PyTuple_SET_ITEM(tuple, i, v);
    }
    return tuple;
}

/* _position_key: (seat, deck, sorted discard, sorted hands, item masks, zombie masks,
   symbol-less zombie counts) */
static PyObject *position_key(const Game *g)
{
    int n = g->players;
    PyObject *hands = PyTuple_New(n), *items = PyTuple_New(n), *zombies = PyTuple_New(n);
    PyObject *roaches = PyTuple_New(n), *deck = PyTuple_New(g->deck.n);
    PyObject *discard = sorted_tuple(&g->discard), *key = NULL;
    if (!hands || !items || !zombies || !roaches || !deck || !discard)
        goto done;
    for (int i = 0; i < g->deck.n; i++) {
        PyObject *v = PyLong_FromLong(g->deck.card[i]);
        if (!v)
            goto done;
        PyTuple_SET_ITEM(deck, i, v);
    }
    for (int q = 0; q < n; q++) {
        uint64_t tab = g->tables[q];
        PyObject *h = sorted_tuple(&g->hands[q]);
        PyObject *im = PyLong_FromUnsignedLongLong(tab & g->item_mask);
        PyObject *zm = PyLong_FromUnsignedLongLong(tab >> g->S & g->item_mask);
        PyObject *rc = PyLong_FromLong(popcount(tab >> g->R));
        if (h) PyTuple_SET_ITEM(hands, q, h);
        if (im) PyTuple_SET_ITEM(items, q, im);
        if (zm) PyTuple_SET_ITEM(zombies, q, zm);
        if (rc) PyTuple_SET_ITEM(roaches, q, rc);
        if (!h || !im || !zm || !rc)
            goto done;
    }
    key = Py_BuildValue("(iOOOOOO)", g->turn, deck, discard, hands, items, zombies, roaches);
done:
    Py_XDECREF(hands); Py_XDECREF(items); Py_XDECREF(zombies); Py_XDECREF(roaches);
    Py_XDECREF(deck); Py_XDECREF(discard);
    return key;
}

/* the position at a turn start seen once more: _seen = {**_seen, key: c}; returns c, -1 on
   error */
static long long see_position(Game *g)
{
    PyObject *key = position_key(g);
    if (!key)
        return -1;
    long long c = 1;
    PyObject *old = PyDict_GetItemWithError(g->seen, key);     /* borrowed */
    if (old) {
        c = PyLong_AsLongLong(old) + 1;
        if (c == 0 && PyErr_Occurred()) {
            Py_DECREF(key);
            return -1;
        }
    }
    else if (PyErr_Occurred()) {
        Py_DECREF(key);
        return -1;
    }
    PyObject *seen = PyDict_Copy(g->seen), *count = PyLong_FromLongLong(c);
    if (!seen || !count || PyDict_SetItem(seen, key, count) < 0) {
        Py_XDECREF(seen); Py_XDECREF(count); Py_DECREF(key);
        return -1;
    }
    Py_DECREF(count);
    Py_DECREF(key);
    Py_DECREF(g->seen);
    g->seen = seen;
    return c;
}

/* ------------------------------------------------------------------ the turn flow */
/* _begin_turn(advance=True): the next seat (Z2: clockwise, zombie players keep their turns),
   the never-ending guards, then the Z3 / Z9 draw. Returns -1 on a Python error. */
static int begin_turn(Game *g)
{
    int p = g->turn = (g->turn + 1) % g->players;
    g->turns++;
    g->special_used = g->z6_used = 0;
    if (g->turns > g->max_turns) {                              /* the turn cap */
        fire(g, EV_CAP);
        finish(g, OVER_CAP, -1);
        return 0;
    }
    if (g->deck.n <= CIRCULATION && g->deck.n + g->discard.n <= CIRCULATION) {
        long long c = see_position(g);                          /* the repetition guard */
        if (c < 0)
            return -1;
        if (c >= g->rep_limit) {
            fire(g, EV_REPETITION);
            g->repeated = c;
            finish(g, OVER_REPETITION, -1);
            return 0;
        }
    }
    g->phase = g->live >> p & 1 ? PH_LIVING : PH_ZOMBIE;
    if (g->deck.n)                                              /* Z3 / Z9: draw a card */
        pile_push(&g->hands[p], pile_pop(&g->deck));
    else
        draw(g, p, 1);                                          /* Z13 */
    return 0;
}

/* ------------------------------------------------------------------ a card lands */
/* _recount after Z8: q's empty table is below both thresholds unless they are 1 (Z12) */
static void recount_empty(Game *g, int q)
{
    unsigned b = 1u << q;
    g->iok = 1 < g->win_items ? g->iok | b : g->iok & ~b;
    g->zok = 1 < g->lose_zombies ? g->zok | b : g->zok & ~b;
}

/* _zombify: Z8, q's hand and table go to the discard pile; q plays on as a zombie (Z9);
   Z10 the last survivor wins */
static void zombify(Game *g, int q)
{
    fire(g, EV_Z8);
    pile_extend(&g->discard, &g->hands[q]);
    g->hands[q].n = 0;
    uint64_t tab = g->tables[q];
    for (int t = 0; t < g->R; t++)                 /* _table_types: the types ascending, */
        if (bit_of(tab, t))
            pile_push(&g->discard, t);
    for (int c = popcount(tab >> g->R); c > 0; c--)   /* then the symbol-less ones */
        pile_push(&g->discard, g->R);
    g->tables[q] = 0;
    for (int t = 0; t < g->NT; t++)                 /* no table: no seat bit */
        g->acc[t] &= ~(1u << q);
    recount_empty(g, q);
    g->alive[q] = 0;
    g->live &= ~(1u << q);
    g->living--;
    g->zombified = 1;
    if (g->living == 1) {                                       /* Z10: last survivor */
        fire(g, EV_Z10);
        int first = 0;
        while (!g->alive[first])
            first++;
        finish(g, OVER_Z10, first);
    }
}

/* _item_threshold: the table reaches win_items - 1 items or more: Z12 from now on, Z7 saved */
static void item_threshold(Game *g, int q, uint64_t tab)
{
    g->iok &= ~(1u << q);
    if (items_on(g, tab) >= g->win_items) {
        fire(g, EV_Z7);
        finish(g, OVER_Z7, q);
    }
}

/* _zombie_threshold: lose_zombies - 1 zombies or more: Z12 from now on, Z8 at lose_zombies */
static void zombie_threshold(Game *g, int q, uint64_t tab)
{
    g->zok &= ~(1u << q);
    if (zombies_on(g, tab) >= g->lose_zombies)
        zombify(g, q);
}

/* card t onto q's table, as _random_plies places it (_place for the symbol-less zombie) */
static void place(Game *g, int t, int q)
{
    unsigned qbit = 1u << q;
    uint64_t tab = g->tables[q];
    int twin = g->twin[t];
    if (bit_of(tab, twin)) {                                    /* Z4: the pair cancels */
        tab = g->tables[q] = tab ^ (1ULL << twin);
        g->acc[twin] |= qbit;                                   /* room for the twin (Z5) */
        if (twin < g->S) {                                      /* Z12: one item fewer */
            if (items_on(g, tab) + 1 < g->win_items)
                g->iok |= qbit;
        }
        else if (zombies_on(g, tab) + 1 < g->lose_zombies)      /* one zombie fewer */
            g->zok |= qbit;
        pile_push(&g->discard, t);
        pile_push(&g->discard, twin);
        g->end[END_Z4]++;
        return;
    }
    if (t < g->R) {                                             /* the card stays (Z5) */
        tab = g->tables[q] = tab | 1ULL << t;
        g->acc[t] ^= qbit;
        if (t < g->S) {
            if (items_on(g, tab) + 1 >= g->win_items)
                item_threshold(g, q, tab);                      /* Z12, Z7 */
        }
        else if (zombies_on(g, tab) + 1 >= g->lose_zombies)
            zombie_threshold(g, q, tab);                        /* Z12, Z8 (Z10) */
        return;
    }
    /* the symbol-less zombie (Z14: never cancelled): one more in the unary count */
    tab = g->tables[q] = tab | ((tab >> t) + 1) << t;
    if (bit_of(tab, g->full[t]))                                /* Z5: t no more */
        g->acc[t] &= ~qbit;
    fire(g, EV_Z14);
    if (zombies_on(g, tab) + 1 >= g->lose_zombies)
        zombie_threshold(g, q, tab);
}

/* ------------------------------------------------------------------ the legal moves */
static int move_of(int kind, int t, int q) { return kind << 16 | t << 8 | q; }

static int add_seats(int *moves, int n, int kind, int t, unsigned seats)
{
    for (seats &= SEAT_MASK; seats; seats &= seats - 1)     /* seats ascending */
        moves[n++] = move_of(kind, t, __builtin_ctz(seats));
    return n;
}

static int z6_move(const Game *g)                 /* _z6_move: discard the hand, or pass */
{
    return move_of(g->z6_used ? PASS : DISCARD_HAND, 0, 0);
}

/* _generate: the legal moves of the position (the game not over) in its order */
static int generate(const Game *g, int *moves)
{
    int p = g->turn;
    const Pile *hand = &g->hands[p];
    if (g->phase == PH_ZOMBIE) {                    /* Z9: the drawn card, any type */
        if (!hand->n)
            return (moves[0] = move_of(PASS, 0, 0)), 1;
        int t = hand->card[0];
        int n = add_seats(moves, 0, PLAY, t, g->acc[t]);
        if (!n)
            moves[n++] = move_of(DISCARD, t, 0);
        return n;
    }
    uint8_t types[MAX_TYPES];
    int nt = set_order(hand->card, hand->n, types);
    unsigned own = 1u << p;
    int n = 0;
    if (g->special_used) {                          /* Z11 once a turn: normal plays, Z3 */
        for (int i = 0; i < nt; i++) {
            int t = types[i];
            n = add_seats(moves, n, PLAY, t, g->acc[t] & (t < g->S ? own : ~own));
        }
        if (!n)
            moves[n++] = z6_move(g);                /* Z6 */
        return n;
    }
    /* Z12 binds nobody when no other table is at win_items - 1 items and yours is below
       lose_zombies - 1 zombies; else it leaves out the specials that would give another
       player their last item or you your last zombie, unless Z4 cancels them */
    int z12_free = (g->zok & own) && !(g->live & ~own & ~g->iok);
    unsigned items_ok = g->iok | own, zombies_ok = g->zok | ~own;
    int specials[MAX_MOVES], ns = 0;
    for (int i = 0; i < nt; i++) {
        int t = types[i];
        unsigned seats = g->acc[t];
        if (!z12_free) {
            if (t < g->S)
                seats &= items_ok | ~g->acc[t + g->S];
            else if (t < g->R)
                seats &= zombies_ok | ~g->acc[t - g->S];
            else
                seats &= zombies_ok;
        }
        seats &= SEAT_MASK;
        if (t < g->S) {                             /* Z3 an item onto your own table, */
            n = add_seats(moves, n, PLAY, t, seats & own);
            ns = add_seats(specials, ns, SPECIAL, t, seats & ~own);     /* Z11 another's */
        }
        else {                                      /* a zombie onto another's, */
            n = add_seats(moves, n, PLAY, t, seats & ~own);
            ns = add_seats(specials, ns, SPECIAL, t, seats & own);      /* Z11 your own */
        }
    }
    if (!n)
        specials[ns++] = z6_move(g);                /* Z6 */
    memcpy(moves + n, specials, (size_t)ns * sizeof *moves);
    return n + ns;
}

/* ------------------------------------------------------------------ a move */
/* _apply as _random_plies applies it. Returns -1 on a Python error (the repetition guard). */
static int apply(Game *g, int move)
{
    int kind = move >> 16, t = move >> 8 & 0xFF, q = move & 0xFF, p = g->turn;
    Pile *hand = &g->hands[p];
    switch (kind) {
    case PLAY:                                      /* Z3 (living) / Z9 (zombie player) */
        pile_remove(hand, t);
        g->end[g->phase == PH_ZOMBIE ? END_Z9 : END_Z3]++;
        if (t >= g->S)
            g->onto[q]++;                           /* stats: a zombie onto q */
        place(g, t, q);
        return g->over ? 0 : begin_turn(g);
    case SPECIAL:                                   /* Z11: used up, the card lands, draw */
        pile_remove(hand, t);
        g->special_used = 1;
        g->end[END_Z11]++;
        place(g, t, q);
        if (!g->over)
            draw(g, p, 1);
        return 0;
    case DISCARD_HAND:                              /* Z6: show the hand, draw `redraw` */
        fire(g, EV_Z6);
        pile_extend(&g->discard, hand);
        hand->n = 0;
        g->z6_used = 1;
        draw(g, p, g->redraw);
        return 0;
    case DISCARD:                                   /* Z9: the card cannot be played */
        fire(g, EV_Z9_DISCARD);
        pile_push(&g->discard, t);
        pile_remove(hand, t);
        return begin_turn(g);
    default:                                        /* PASS (Z6 used, nothing to play) */
        fire(g, EV_PASS);
        return begin_turn(g);
    }
}

/* the playout: the legal moves, rng.randbelow's pick, the move; returns the plies, -1 on a
   Python error */
static long long play(Game *g)
{
    int moves[MAX_MOVES];
    long long plies = 0;
    while (!g->over) {
        int n = generate(g, moves);
        int move = moves[randbelow(g->pick, (unsigned)n)];
        plies++;
        if (apply(g, move) < 0)
            return -1;
    }
    return plies;
}

/* ------------------------------------------------------------------ reading the game */
/* each reader: 1 read, 0 not supported (the caller plays in Python), -1 a Python error */
static int read_int(PyObject *obj, PyObject *name, long long lo, long long hi, long long *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    int ok = 0;
    if (PyLong_CheckExact(v)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred())
            ok = -1;
        else if (!overflow && lo <= x && x <= hi) {
            *out = x;
            ok = 1;
        }
    }
    Py_DECREF(v);
    return ok;
}

static int read_u64(PyObject *v, uint64_t *out)
{
    if (!PyLong_CheckExact(v) || Py_SIZE(v) < 0)
        return 0;
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    *out = x;
    return 1;
}

static int read_bool(PyObject *obj, PyObject *name, int *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    int ok = PyBool_Check(v);
    if (ok)
        *out = v == Py_True;
    Py_DECREF(v);
    return ok;
}

static int read_pile(PyObject *list, int nt, Pile *pile)
{
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) > MAX_CARDS)
        return 0;
    pile->n = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < pile->n; i++) {
        PyObject *v = PyList_GET_ITEM(list, i);
        if (!PyLong_CheckExact(v))
            return 0;
        long x = PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (x < 0 || x >= nt)
            return 0;
        pile->card[i] = (uint8_t)x;
    }
    return 1;
}

static int read_pile_attr(PyObject *obj, PyObject *name, int nt, Pile *pile)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    int ok = read_pile(v, nt, pile);
    Py_DECREF(v);
    return ok;
}

/* a tuple of NT bit indexes below 64 (FULL, TWIN) */
static int read_bits(PyObject *obj, PyObject *name, int nt, int *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        return -1;
    int ok = PyTuple_CheckExact(v) && PyTuple_GET_SIZE(v) == nt;
    for (int i = 0; ok && i < nt; i++) {
        PyObject *x = PyTuple_GET_ITEM(v, i);
        long b = PyLong_CheckExact(x) ? PyLong_AsLong(x) : -1;
        if (b == -1 && PyErr_Occurred())
            PyErr_Clear();
        ok = 0 <= b && b < TABLE_BITS;
        out[i] = (int)b;
    }
    Py_DECREF(v);
    return ok;
}

/* the rules' constants: players, S, FULL, TWIN, thresholds, options */
static int read_rules(Game *g, PyObject *self)
{
    long long x;
    int r;
#define READ_INT(name, lo, hi, field)                                   \
    if ((r = read_int(self, name, lo, hi, &x)) <= 0) return r;          \
    field = x;
    READ_INT(S_players, 1, SEATS, g->players);
    READ_INT(S_S, 1, (MAX_TYPES - 1) / 2, g->S);
    READ_INT(S_ROACH, 2 * g->S, 2 * g->S, g->R);
    READ_INT(S_win_items, LLONG_MIN, LLONG_MAX, g->win_items);
    READ_INT(S_lose_zombies, LLONG_MIN, LLONG_MAX, g->lose_zombies);
    /* the cap below LLONG_MAX: turns (read below LLONG_MAX too) passes it on reaching
       LLONG_MAX at the latest, so begin_turn's turns++ never overflows */
    READ_INT(S_max_turns, LLONG_MIN, LLONG_MAX - 1, g->max_turns);
    READ_INT(S_rep_limit, LLONG_MIN, LLONG_MAX, g->rep_limit);
#undef READ_INT
    g->NT = g->R + 1;
    g->item_mask = (1ULL << g->S) - 1;
    if ((r = read_bits(self, S_FULL, g->NT, g->full)) <= 0 ||
        (r = read_bits(self, S_TWIN, g->NT, g->twin)) <= 0)
        return r;
    for (int t = 0; t < g->R; t++)          /* the rules of rules._rule_tables, nothing else */
        if (g->full[t] != t || g->twin[t] != (t < g->S ? t + g->S : t - g->S))
            return 0;
    if (g->full[g->R] < g->R || g->twin[g->R] <= g->full[g->R])
        return 0;
    PyObject *options = PyObject_GetAttr(self, S_options);
    if (!options)
        return -1;
    PyObject *redraw = PyDict_CheckExact(options) ?
        PyDict_GetItemWithError(options, S_redraw) : NULL;     /* borrowed */
    r = redraw && PyLong_CheckExact(redraw) ? 1 : (PyErr_Occurred() ? -1 : 0);
    if (r == 1) {
        int overflow;
        g->redraw = PyLong_AsLongLongAndOverflow(redraw, &overflow);
        if (g->redraw == -1 && PyErr_Occurred())
            r = -1;
        else if (overflow)
            r = 0;
    }
    Py_DECREF(options);
    return r;
}

static int read_tables(Game *g, PyObject *self)
{
    PyObject *tables = PyObject_GetAttr(self, S_tables);
    if (!tables)
        return -1;
    int ok = PyList_CheckExact(tables) && PyList_GET_SIZE(tables) == g->players;
    uint64_t width = (1ULL << (g->full[g->R] + 1)) - 1;     /* up to the last roach bit */
    for (int q = 0; ok == 1 && q < g->players; q++) {
        ok = read_u64(PyList_GET_ITEM(tables, q), &g->tables[q]);
        if (ok == 1 && g->tables[q] & ~width)
            ok = 0;
    }
    Py_DECREF(tables);
    return ok;
}

static int read_hands_and_alive(Game *g, PyObject *self)
{
    PyObject *hands = PyObject_GetAttr(self, S_hands), *alive = PyObject_GetAttr(self, S_alive);
    int ok = hands && alive ? 1 : -1;
    if (ok == 1)
        ok = PyList_CheckExact(hands) && PyList_GET_SIZE(hands) == g->players &&
             PyList_CheckExact(alive) && PyList_GET_SIZE(alive) == g->players;
    for (int q = 0; ok == 1 && q < g->players; q++) {
        PyObject *a = PyList_GET_ITEM(alive, q);
        ok = PyBool_Check(a) ? read_pile(PyList_GET_ITEM(hands, q), g->NT, &g->hands[q]) : 0;
        g->alive[q] = a == Py_True;
    }
    Py_XDECREF(hands);
    Py_XDECREF(alive);
    return ok;
}

/* _acc, _iok, _zok, _live: seat masks of the players, as the rules keep them */
static int read_masks(Game *g, PyObject *self)
{
    long long x;
    int r;
    long long seats = (1LL << g->players) - 1;
    if ((r = read_int(self, S_iok, 0, seats, &x)) <= 0) return r;
    g->iok = (unsigned)x;
    if ((r = read_int(self, S_zok, 0, seats, &x)) <= 0) return r;
    g->zok = (unsigned)x;
    if ((r = read_int(self, S_live, 0, seats, &x)) <= 0) return r;
    g->live = (unsigned)x;
    PyObject *acc = PyObject_GetAttr(self, S_acc);
    if (!acc)
        return -1;
    int ok = PyList_CheckExact(acc) && PyList_GET_SIZE(acc) == g->NT;
    for (int t = 0; ok == 1 && t < g->NT; t++) {
        uint64_t m;
        ok = read_u64(PyList_GET_ITEM(acc, t), &m);
        if (ok == 1 && m & ~(uint64_t)g->live)
            ok = 0;                                 /* only living seats take cards */
        g->acc[t] = (unsigned)m;
    }
    Py_DECREF(acc);
    return ok;
}

/* the kept masks are the ones rules._fresh_masks computes from the tables (as after every
   move): then a table never takes a card Z5 refuses, so its bits stay below FULL[R] + 1 */
static int masks_fresh(const Game *g)
{
    unsigned acc[MAX_TYPES] = {0}, iok = 0, zok = 0;
    for (int q = 0; q < g->players; q++) {
        uint64_t tab = g->tables[q];
        for (int t = 0; t < g->NT; t++)
            if (g->alive[q] && !bit_of(tab, g->full[t]))                  /* Z5 */
                acc[t] |= 1u << q;
        iok |= (unsigned)(items_on(g, tab) + 1 < g->win_items) << q;       /* Z12 */
        zok |= (unsigned)(zombies_on(g, tab) + 1 < g->lose_zombies) << q;
    }
    return !memcmp(acc, g->acc, (size_t)g->NT * sizeof *acc) && iok == g->iok && zok == g->zok;
}

/* the living seats agree (alive, living, _live), the masks are fresh and the cards fit the
   arrays */
static int consistent(const Game *g)
{
    int living = 0;
    unsigned live = 0;
    long cards = g->deck.n + g->discard.n;
    for (int q = 0; q < g->players; q++) {
        living += g->alive[q];
        live |= (unsigned)g->alive[q] << q;
        cards += g->hands[q].n + popcount(g->tables[q]);
    }
    return living == g->living && live == g->live && cards <= MAX_CARDS && masks_fresh(g);
}

static int read_rng(PyObject *rng, uint64_t *state)
{
    PyObject *v = PyObject_GetAttr(rng, S_state);
    if (!v)
        return -1;
    int ok = read_u64(v, state);
    Py_DECREF(v);
    return ok;
}

static int read_game(Game *g, PyObject *self, PyObject *rng)
{
    long long x;
    int r;
    if ((r = read_rules(g, self)) <= 0 ||
        (r = read_pile_attr(self, S_deck, g->NT, &g->deck)) <= 0 ||
        (r = read_pile_attr(self, S_discard, g->NT, &g->discard)) <= 0 ||
        (r = read_tables(g, self)) <= 0 ||
        (r = read_hands_and_alive(g, self)) <= 0 ||
        (r = read_masks(g, self)) <= 0 ||
        (r = read_bool(self, S_special_used, &g->special_used)) <= 0 ||
        (r = read_bool(self, S_z6_used, &g->z6_used)) <= 0)
        return r;
    if ((r = read_int(self, S_living, 0, SEATS, &x)) <= 0) return r;
    g->living = (int)x;
    if ((r = read_int(self, S_turn, 0, g->players - 1, &x)) <= 0) return r;
    g->turn = (int)x;
    if ((r = read_int(self, S_phase, PH_LIVING, PH_ZOMBIE, &x)) <= 0) return r;
    g->phase = (int)x;
    if ((r = read_int(self, S_turns, LLONG_MIN, LLONG_MAX - 1, &x)) <= 0) return r;
    g->turns = x;
    if (!consistent(g))
        return 0;
    g->seen = PyObject_GetAttr(self, S_seen);
    if (!g->seen)
        return -1;
    if (!PyDict_CheckExact(g->seen))
        return 0;
    PyObject *own = PyObject_GetAttr(self, S_rng);
    if (!own)
        return -1;
    r = read_rng(own, &g->game_state);
    if (r == 1 && own != rng)
        r = read_rng(rng, &g->pick_state);
    g->draw = &g->game_state;
    g->pick = own == rng ? &g->game_state : &g->pick_state;    /* one generator or two */
    Py_DECREF(own);
    return r;
}

/* ------------------------------------------------------------------ writing it back */
static PyObject *pile_list(const Pile *p)
{
    PyObject *list = PyList_New(p->n);
    for (int i = 0; list && i < p->n; i++) {
        PyObject *v = PyLong_FromLong(p->card[i]);
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int set_attr(PyObject *obj, PyObject *name, PyObject *value)    /* steals value */
{
    if (!value)
        return -1;
    int r = PyObject_SetAttr(obj, name, value);
    Py_DECREF(value);
    return r;
}

/* list[:] = pile (the same list object, as Python changes the deck in place) */
static int set_pile_in_place(PyObject *obj, PyObject *name, const Pile *p)
{
    PyObject *list = PyObject_GetAttr(obj, name), *items = pile_list(p);
    int r = list && items ? PyList_SetSlice(list, 0, PyList_GET_SIZE(list), items) : -1;
    Py_XDECREF(list);
    Py_XDECREF(items);
    return r;
}

static PyObject *int_list(const unsigned *values, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLong(values[i]);
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static int write_tables(const Game *g, PyObject *self)       /* in place, as _place does */
{
    PyObject *tables = PyObject_GetAttr(self, S_tables);
    if (!tables)
        return -1;
    for (int q = 0; q < g->players; q++) {
        PyObject *v = PyLong_FromUnsignedLongLong(g->tables[q]);
        if (!v || PyList_SetItem(tables, q, v) < 0) {
            Py_DECREF(tables);
            return -1;
        }
    }
    Py_DECREF(tables);
    return 0;
}

/* _acc: a new list after Z8 (as _zombify makes), else changed in place */
static int write_acc(const Game *g, PyObject *self)
{
    PyObject *acc = int_list(g->acc, g->NT);
    if (!acc)
        return -1;
    if (g->zombified)
        return set_attr(self, S_acc, acc);
    PyObject *old = PyObject_GetAttr(self, S_acc);
    int r = old ? PyList_SetSlice(old, 0, PyList_GET_SIZE(old), acc) : -1;
    Py_XDECREF(old);
    Py_DECREF(acc);
    return r;
}

static int write_hands(const Game *g, PyObject *self)        /* new lists, as _random_plies */
{
    PyObject *hands = PyList_New(g->players);
    for (int q = 0; hands && q < g->players; q++) {
        PyObject *hand = pile_list(&g->hands[q]);
        if (!hand) {
            Py_CLEAR(hands);
            break;
        }
        PyList_SET_ITEM(hands, q, hand);
    }
    return set_attr(self, S_hands, hands);
}

static int write_alive(const Game *g, PyObject *self)        /* a new list after Z8 */
{
    if (!g->zombified)
        return 0;
    PyObject *alive = PyList_New(g->players);
    for (int q = 0; alive && q < g->players; q++) {
        PyObject *a = g->alive[q] ? Py_True : Py_False;
        Py_INCREF(a);
        PyList_SET_ITEM(alive, q, a);
    }
    return set_attr(self, S_alive, alive);
}

static int write_rng(PyObject *rng, uint64_t state)
{
    return set_attr(rng, S_state, PyLong_FromUnsignedLongLong(state));
}

/* the position's fields and both RNGs */
static int write_position(const Game *g, PyObject *self, PyObject *rng)
{
    PyObject *own = PyObject_GetAttr(self, S_rng);
    if (!own)
        return -1;
    int r = write_rng(own, g->game_state);
    Py_DECREF(own);
    if (r < 0 || (g->pick != &g->game_state && write_rng(rng, g->pick_state) < 0))
        return -1;
    if (set_pile_in_place(self, S_deck, &g->deck) < 0 ||
        (g->reshuffled ? set_attr(self, S_discard, pile_list(&g->discard))     /* Z13: new */
                       : set_pile_in_place(self, S_discard, &g->discard)) < 0 ||
        write_hands(g, self) < 0 || write_tables(g, self) < 0 || write_alive(g, self) < 0 ||
        write_acc(g, self) < 0)
        return -1;
    Py_INCREF(g->seen);
    if (set_attr(self, S_seen, g->seen) < 0 ||
        set_attr(self, S_living, PyLong_FromLong(g->living)) < 0 ||
        set_attr(self, S_turn, PyLong_FromLong(g->turn)) < 0 ||
        set_attr(self, S_phase, PyLong_FromLong(g->phase)) < 0 ||
        set_attr(self, S_turns, PyLong_FromLongLong(g->turns)) < 0 ||
        set_attr(self, S_special_used, PyBool_FromLong(g->special_used)) < 0 ||
        set_attr(self, S_z6_used, PyBool_FromLong(g->z6_used)) < 0 ||
        set_attr(self, S_iok, PyLong_FromUnsignedLong(g->iok)) < 0 ||
        set_attr(self, S_zok, PyLong_FromUnsignedLong(g->zok)) < 0 ||
        set_attr(self, S_live, PyLong_FromUnsignedLong(g->live)) < 0)
        return -1;
    return 0;
}

/* counter[key] += n; a collections.Counter (missing keys count 0) is read and written as the
   dict it is, anything else through its own __getitem__ / __setitem__ */
static int counter_add(PyObject *counter, PyObject *key, long long n)
{
    int is_counter = Py_TYPE(counter) == counter_type;
    PyObject *old;
    if (is_counter) {
        old = PyDict_GetItemWithError(counter, key);            /* borrowed */
        if (!old && PyErr_Occurred())
            return -1;
        old = old ? Py_NewRef(old) : PyLong_FromLong(0);
    }
    else
        old = PyObject_GetItem(counter, key);
    if (!old)
        return -1;
    PyObject *add = PyLong_FromLongLong(n), *sum = add ? PyNumber_Add(old, add) : NULL;
    Py_DECREF(old);
    Py_XDECREF(add);
    if (!sum)
        return -1;
    int r = is_counter ? PyDict_SetItem(counter, key, sum) : PyObject_SetItem(counter, key, sum);
    Py_DECREF(sum);
    return r;
}

/* rules_fired: the rules fired in play in the order they first fired, then Z3, Z4, Z9, Z11;
   counters: the zombies played onto each seat (stats), seats ascending */
static int write_tallies(const Game *g, PyObject *self)
{
    PyObject *fired = PyObject_GetAttr(self, S_rules_fired);
    PyObject *counters = PyObject_GetAttr(self, S_counters);
    int r = fired && counters ? 0 : -1;
    for (int k = 0; r == 0 && k < g->nfired; k++)
        for (int e = 0; e < N_EVENTS; e++)
            if (g->fired[e] && g->first[e] == k)
                r = counter_add(fired, EVENT_KEYS[e], g->fired[e]);
    for (int e = 0; r == 0 && e < N_END; e++)
        if (g->end[e])
            r = counter_add(fired, END_KEYS[e], g->end[e]);
    for (int q = 0; r == 0 && q < g->players; q++)
        if (g->onto[q])
            r = counter_add(counters, ZT_KEYS[q], g->onto[q]);
    Py_XDECREF(fired);
    Py_XDECREF(counters);
    return r;
}

/* the game's own _finish(winners, reason, rule) */
static int write_outcome(const Game *g, PyObject *self)
{
    PyObject *result = NULL, *seed = NULL, *reason = NULL;
    switch (g->over) {
    case OVER_Z7:
        result = PyObject_CallMethod(self, "_finish", "(i)OO", g->winner, S_saved,
                                     EVENT_KEYS[EV_Z7]);
        break;
    case OVER_Z10:
        result = PyObject_CallMethod(self, "_finish", "(i)OO", g->winner, S_last_survivor,
                                     EVENT_KEYS[EV_Z10]);
        break;
    case OVER_CAP:
    case OVER_REPETITION:
        seed = PyObject_GetAttr(self, S_seed);
        if (!seed)
            return -1;
        reason = g->over == OVER_CAP ?
            PyUnicode_FromFormat("turn cap %lld reached (seed %R)", g->max_turns, seed) :
            PyUnicode_FromFormat("position repeated %lld times (seed %R)", g->repeated, seed);
        Py_DECREF(seed);
        if (!reason)
            return -1;
        result = PyObject_CallMethod(self, "_finish", "()OO", reason,
                                     EVENT_KEYS[g->over == OVER_CAP ? EV_CAP : EV_REPETITION]);
        Py_DECREF(reason);
        break;
    default:
        PyErr_SetString(PyExc_SystemError, "zombie_run._native: the playout did not end");
        return -1;
    }
    Py_XDECREF(result);
    return result ? 0 : -1;
}

/* ------------------------------------------------------------------ the module */
PyDoc_STRVAR(random_plies_doc,
"random_plies(game, rng) -> int | None\n\n"
"Play ``game`` (a ZombieRun, not over) to its end as ``Playout._random_plies(rng)`` does\n"
"and return the plies; None when the position or its options are not supported (nothing\n"
"changed: play it in Python). The caller keeps the rest of random_playout (undo history,\n"
"ply, logs).");

static PyObject *random_plies(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *self, *rng, *outcome;
    if (!PyArg_ParseTuple(args, "OO:random_plies", &self, &rng))
        return NULL;
    if (!set_order_ok)
        Py_RETURN_NONE;
    outcome = PyObject_GetAttr(self, S_outcome);
    if (!outcome)
        return NULL;
    Py_DECREF(outcome);
    if (outcome != Py_None)
        Py_RETURN_NONE;                             /* over: Python's loop plays nothing */
    Game *g = PyMem_Calloc(1, sizeof *g);
    if (!g)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    int r = read_game(g, self, rng);
    if (r == 0)
        result = Py_NewRef(Py_None);
    else if (r > 0) {
        long long plies = play(g);
        if (plies >= 0 && write_position(g, self, rng) == 0 && write_tallies(g, self) == 0 &&
            write_outcome(g, self) == 0)
            result = PyLong_FromLongLong(plies);
    }
    Py_XDECREF(g->seen);
    PyMem_Free(g);
    return result;
}

static int pile_arg(PyObject *list, Pile *pile)
{
    int r = read_pile(list, MAX_TYPES, pile);
    if (r == 0)
        PyErr_SetString(PyExc_ValueError, "a list of at most 256 ints in 0..62");
    return r;
}

PyDoc_STRVAR(set_order_doc,
"_set_order(cards) -> list\n\n"
"The order the C code expects CPython to iterate ``set(cards)`` in (ints 0..62; tests).");

static PyObject *py_set_order(PyObject *Py_UNUSED(module), PyObject *list)
{
    Pile pile;
    uint8_t out[MAX_TYPES];
    if (pile_arg(list, &pile) <= 0)
        return NULL;
    pile.n = set_order(pile.card, pile.n, out);
    memcpy(pile.card, out, (size_t)pile.n);
    return pile_list(&pile);
}

PyDoc_STRVAR(shuffle_doc,
"_shuffle(state, cards) -> (state, list)\n\n"
"deck.fast_shuffle of ``cards`` (ints 0..62) by an Rng at ``state``: the RNG's state after it\n"
"and the shuffled list (tests).");

static PyObject *py_shuffle(PyObject *Py_UNUSED(module), PyObject *args)
{
    unsigned long long state;
    PyObject *list;
    Pile pile;
    if (!PyArg_ParseTuple(args, "KO:_shuffle", &state, &list) || pile_arg(list, &pile) <= 0)
        return NULL;
    uint64_t s = state;
    fast_shuffle(&s, &pile);
    return Py_BuildValue("(KN)", (unsigned long long)s, pile_list(&pile));
}

/* the import's self-check: set_order against CPython's own sets, on hands of 1 to 40 cards
   drawn from 0..62 (collisions, growth); a mismatch turns random_plies off (None) */
static int check_set_order(void)
{
    uint64_t state = 13;
    for (int trial = 0; trial < 400; trial++) {
        Pile pile;
        uint8_t out[MAX_TYPES];
        pile.n = 1 + (int)randbelow(&state, 40);
        for (int i = 0; i < pile.n; i++)
            pile.card[i] = (uint8_t)randbelow(&state, trial % 2 ? MAX_TYPES : 21);
        int n = set_order(pile.card, pile.n, out);
        PyObject *list = pile_list(&pile), *set = list ? PySet_New(list) : NULL;
        Py_XDECREF(list);
        if (!set)
            return -1;
        PyObject *it = PyObject_GetIter(set), *key;
        Py_DECREF(set);
        if (!it)
            return -1;
        int i = 0, same = 1;
        while (same && (key = PyIter_Next(it)) != NULL) {
            same = i < n && PyLong_AsLong(key) == out[i++];
            Py_DECREF(key);
        }
        Py_DECREF(it);
        if (PyErr_Occurred())
            return -1;
        if (!same || i != n)
            return 0;
    }
    return 1;
}

static PyMethodDef methods[] = {
    {"random_plies", random_plies, METH_VARARGS, random_plies_doc},
    {"_set_order", py_set_order, METH_O, set_order_doc},
    {"_shuffle", py_shuffle, METH_VARARGS, shuffle_doc},
    {NULL, NULL, 0, NULL}};

PyDoc_STRVAR(module_doc,
"Zombie Run's compiled random playout: random_plies(game, rng) plays what the Python\n"
"Playout._random_plies plays. The Python engine is the definition of the rules; equality is\n"
"tested by tests/test_zombie_run_native.py. Unsupported positions return None (Python plays).");

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, .m_name = "pnp.engines.zombie_run._native", .m_doc = module_doc,
    .m_size = -1, .m_methods = methods};

static int intern(PyObject **slot, const char *name)
{
    *slot = PyUnicode_InternFromString(name);
    return *slot ? 0 : -1;
}

static int intern_all(void)
{
    static char zt[SEATS][8];
    struct { PyObject **slot; const char *name; } names[] = {
        {&S_players, "players"}, {&S_S, "S"}, {&S_ROACH, "ROACH"}, {&S_FULL, "FULL"},
        {&S_TWIN, "TWIN"}, {&S_win_items, "win_items"}, {&S_lose_zombies, "lose_zombies"},
        {&S_max_turns, "max_turns"}, {&S_rep_limit, "rep_limit"}, {&S_options, "options"},
        {&S_redraw, "redraw"}, {&S_deck, "deck"}, {&S_discard, "discard"}, {&S_hands, "hands"},
        {&S_tables, "tables"}, {&S_alive, "alive"}, {&S_living, "living"}, {&S_turn, "turn"},
        {&S_phase, "phase"}, {&S_special_used, "special_used"}, {&S_z6_used, "z6_used"},
        {&S_turns, "turns"}, {&S_outcome, "_outcome"}, {&S_acc, "_acc"}, {&S_iok, "_iok"},
        {&S_zok, "_zok"}, {&S_live, "_live"}, {&S_seen, "_seen"}, {&S_rng, "rng"},
        {&S_state, "state"}, {&S_seed, "seed"},
        {&S_rules_fired, "rules_fired"}, {&S_counters, "counters"},
        {&S_saved, "saved: five different items"}, {&S_last_survivor, "last survivor"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (intern(names[i].slot, names[i].name) < 0)
            return -1;
    for (int e = 0; e < N_EVENTS; e++)
        if (intern(&EVENT_KEYS[e], EVENT_NAMES[e]) < 0)
            return -1;
    for (int e = 0; e < N_END; e++)
        if (intern(&END_KEYS[e], END_NAMES[e]) < 0)
            return -1;
    for (int q = 0; q < SEATS; q++) {           /* turns.ZT: the counters' keys */
        PyOS_snprintf(zt[q], sizeof zt[q], "zt%d", q);
        if (intern(&ZT_KEYS[q], zt[q]) < 0)
            return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__native(void)
{
    if (intern_all() < 0)
        return NULL;
    PyObject *collections = PyImport_ImportModule("collections");
    if (!collections)
        return NULL;
    counter_type = (PyTypeObject *)PyObject_GetAttrString(collections, "Counter");
    Py_DECREF(collections);
    if (!counter_type)
        return NULL;
    if (!PyType_Check(counter_type)) {
        PyErr_SetString(PyExc_TypeError, "collections.Counter is not a type");
        return NULL;
    }
    set_order_ok = check_set_order();
    if (set_order_ok < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (m && PyModule_AddIntConstant(m, "SET_ORDER_OK", set_order_ok) < 0)
        Py_CLEAR(m);
    return m;
}
