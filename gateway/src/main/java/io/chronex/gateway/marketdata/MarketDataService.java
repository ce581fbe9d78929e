package io.chronex.gateway.marketdata;

import io.chronex.api.Fill;
import io.chronex.api.LevelChange;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.core.MarketBooks;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.book.Books;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * FIX 4.4 market data for the gateway's sessions (docs/gateway.md, "Market data"). Owned by the gateway's thread: it
 * keeps every symbol's L2 book and trading status from every event the gateway reads, answers MarketDataRequest (V) with
 * a snapshot (W) or a reject (Y), and turns each later event into incremental refreshes (X) and SecurityStatus (f) for
 * the live subscriptions. Because requests and events are handled on the same thread, a W shows the book exactly as
 * of the last event read, and the X that follow it are built from the events after exactly that one: no gap, no change
 * applied twice. Messages go out through an {@link Output} (the gateway's outbox: stored, sequenced, then sent).
 *
 * <p>The event path allocates nothing: level changes go into {@link Books} once, and each subscription's X is collected
 * into scratch arrays (a depth-N one by diffing the top N it last sent against the book's).
 */
public final class MarketDataService {
    /** Where the messages go; sessions are numbered 0..n-1 by the caller. */
    public interface Output {
        /** Starts a message to the session with the standard header; the caller adds the body and calls {@link #end}. */
        FixEncoder begin(int session, int msgType);

        /** Ends the message begun last. */
        void end();

        /** Stores what was built outside an event (the answers to a request, re-snapshots) and sends it. */
        void commit();

        /** Messages stored for the session and not yet handed to its socket (0 when it keeps up or is not connected). */
        int backlog(int session);

        /**
         * Whether everything built for the session has been written to its socket (nothing in the store or in the
         * connection's buffer): the client is reading again, not merely a kernel buffer growing.
         */
        boolean caughtUp(int session);

        /** A line for the process log. */
        void log(String line);

        /** The session's name for the log. */
        String name(int session);

        /**
         * The session's market data changed: its live subscriptions, whether they are stale, and its slow-subscriber
         * episodes, W and X since the service started (for the gateway's published sessions file). Called on the loop
         * thread; must not allocate.
         */
        default void counts(final int session, final int subscriptions, final boolean stale, final long staleEpisodes,
                            final long snapshots, final long incrementals) {
        }
    }

    /** MDReqRejReason (281), FIX 4.4. */
    static final int UNKNOWN_SYMBOL = 0;
    static final int DUPLICATE_MD_REQ_ID = 1;
    static final int INSUFFICIENT_BANDWIDTH = 2;
    static final int INSUFFICIENT_PERMISSIONS = 3;
    static final int UNSUPPORTED_SUBSCRIPTION_REQUEST_TYPE = 4;
    static final int UNSUPPORTED_MARKET_DEPTH = 5;
    static final int UNSUPPORTED_MD_UPDATE_TYPE = 6;
    static final int UNSUPPORTED_AGGREGATED_BOOK = 7;
    static final int UNSUPPORTED_MD_ENTRY_TYPE = 8;
    /** No 281 on the Y (an unsubscribe naming no live subscription has no reason of its own in FIX 4.4). */
    static final int NO_REASON = -1;
    /** MarketDepth above this is refused: a depth-N subscription keeps N levels per side in arrays of its own. */
    public static final int MAX_DEPTH = 1000;

    private static final int ACTION_NEW = 0;
    private static final int ACTION_CHANGE = 1;
    private static final int ACTION_DELETE = 2;
    private static final int TYPE_TRADE = 2;
    /**
     * Everything of a W or X but its entries and its MDReqID and symbol: header (routes included), 268, trailer. What is left
     * of maxMessageLength holds the entries, each counted at its bytes ({@link #entryBytes}), so no W or X is longer than
     * maxMessageLength (the gateway's connection and resend buffers hold a few of those, nothing bigger).
     */
    private static final int MESSAGE_OVERHEAD = 512;
    /** SecurityTradingStatus (326). */
    private static final int HALTED = 2;
    private static final int RESUMED = 3;
    private static final int READY_TO_TRADE = 17;

    /** One symbol: its book and trading status (the core's), and its live subscriptions. */
    static final class SymbolState extends MarketBooks.Symbol {
        final List<Subscription> subscriptions = new ArrayList<>();

        SymbolState(final GatewayConfig.Symbol config, final Books books) {
            super(config, books);
        }
    }

    /** The books and trading status from every event read, and what each event touched. */
    private final MarketBooks<SymbolState> market;
    private final SymbolState[] symbolList;
    private final boolean[] allowed;
    private final int maxBacklog;
    private final int maxSubscriptions;
    private final int maxMessageLength;
    private final Output out;
    private final List<List<Subscription>> bySession = new ArrayList<>();
    private final boolean[] sessionStale;
    /** Slow-subscriber episodes of each session's current connection (the log says the 1st, 2nd, 4th, 8th ...). */
    private final int[] sessionEpisodes;
    /** Per session since the service started, for {@link Output#counts}. */
    private final long[] sessionStaleEpisodes;
    private final long[] sessionSnapshots;
    private final long[] sessionIncrementals;
    private boolean anyStale;


    /** The X being collected for one subscription. */
    private int entries;
    private int[] entryAction = new int[64];
    private int[] entryType = new int[64];
    private long[] entryPrice = new long[64];
    private long[] entryQuantity = new long[64];
    private int[] entryOrders = new int[64];
    /** The entries of the X in the order they are sent (deletes first). */
    private int[] entryOrder = new int[64];

    /** The symbols of the request being handled. */
    private final SymbolState[] requested;

    long snapshots;
    long incrementals;
    long statuses;
    long rejects;
    long staleEpisodes;
    long resnapshots;
    /** Messages of a subscription that failed to build (a bug): it was given a fresh W instead. */
    long buildFailures;
    private int live;

    /**
     * @param allowed    by session: whether it may subscribe (gateway.yaml {@code marketData})
     * @param maxBacklog a session with more messages than this waiting for its socket gets no X until it has caught up
     * @param maxSubscriptions live subscriptions a session may hold (gateway.yaml {@code marketDataMaxSubscriptions})
     * @param maxMessageLength no W or X is longer than this: a bigger book goes out as a W and X of its further levels
     */
    public MarketDataService(final List<GatewayConfig.Symbol> symbolConfigs, final boolean[] allowed, final int maxBacklog,
                             final int maxSubscriptions, final int maxMessageLength, final Output out) {
        this.allowed = allowed.clone();
        this.maxBacklog = maxBacklog;
        this.maxSubscriptions = maxSubscriptions;
        this.maxMessageLength = maxMessageLength;
        this.out = out;
        this.market = new MarketBooks<>(symbolConfigs, SymbolState::new, out::log);
        this.symbolList = market.symbols().toArray(new SymbolState[0]);
        this.requested = new SymbolState[symbolList.length];
        this.sessionStale = new boolean[allowed.length];
        this.sessionEpisodes = new int[allowed.length];
        this.sessionStaleEpisodes = new long[allowed.length];
        this.sessionSnapshots = new long[allowed.length];
        this.sessionIncrementals = new long[allowed.length];
        for (int i = 0; i < allowed.length; i++) {
            bySession.add(new ArrayList<>());
        }
    }

    /** The book kept for every symbol (for tests and tools: the gateway's view of the events read so far). */
    public Books books() {
        return market.books();
    }

    /** Whether the symbol is halted as of the last event read. */
    public boolean halted(final int symbolId) {
        return market.halted(symbolId);
    }

    /** Events not applied to the books (undecodable or failed): the books may differ from the engine's for what they touched. */
    public long unappliedEvents() {
        return market.unappliedEvents();
    }

    // ------------------------------------------------------------------ events

    /** At start: an event the gateway had already answered before it stopped; only the books and the status learn from it. */
    public void rebuild(final Result r) {
        market.rebuild(r);
    }

    /** The books and trading status for a gateway's checkpoint ({@link MarketBooks#writeTo}). */
    public void writeTo(final java.io.DataOutput out) throws java.io.IOException {
        market.writeTo(out);
    }

    /** Becomes what {@link #writeTo} wrote (at start, before any subscription). */
    public void readFrom(final java.nio.ByteBuffer in) {
        market.readFrom(in);
    }

    /** Events applied by {@link #rebuild} since start. */
    public long rebuiltEvents() {
        return market.rebuiltEvents();
    }

    /**
     * An event read live, after its reports were built: the books learn it, then every live subscription of a symbol it
     * touched gets its X (and a SecurityStatus on a halt or resume).
     */
    public void onEvent(final Result r) {
        if (!applied(r)) {
            return;
        }
        if (live == 0) {
            return;
        }
        try {
            for (int t = 0; t < market.touchedCount(); t++) {
                final SymbolState s = market.touched(t);
                final List<Subscription> subs = s.subscriptions;
                for (int i = 0; i < subs.size(); i++) {
                    final Subscription sub = subs.get(i);
                    if (sub.stale) {
                        continue;
                    }
                    if (out.backlog(sub.session) > maxBacklog) {
                        markStale(sub.session, true);
                        continue;
                    }
                    incremental(sub, r);
                    if (s.statusChanged) {
                        status(sub.session, sub.mdReqId, s, s.halted ? HALTED : RESUMED, true);
                    }
                }
            }
        } catch (final RuntimeException e) {
            out.log("market data: the updates of an event could not be built (" + e + "); its subscriptions get a fresh snapshot");
            resyncTouched();
        }
    }

    /**
     * An event whose market data cannot be sent as X (its reports failed, or it is being built again after a crash and
     * its stored messages are not all reports): the books still learn it, and the subscriptions of the symbols it
     * touched get a fresh snapshot instead.
     */
    public void onEventUnanswered(final Result r) {
        if (applied(r)) {
            resyncTouched();
        }
    }

    private void resyncTouched() {
        for (int t = 0; t < market.touchedCount(); t++) {
            final List<Subscription> subs = market.touched(t).subscriptions;
            for (int i = 0; i < subs.size(); i++) {
                stale(subs.get(i));
            }
        }
    }

    /**
     * The subscription gets no X until {@link #poll} has sent it a fresh W. Its own flag is what counts; the session's only
     * says that poll has work there (and that a slow-subscriber episode is under way, for the log).
     */
    private void stale(final Subscription sub) {
        sub.stale = true;
        sessionStale[sub.session] = true;
        anyStale = true;
        counts(sub.session);
    }

    /**
     * Every subscription of the session gets a fresh W once it has caught up: market data it was owed went to it as a gap fill
     * (a ResendRequest on a live connection), so its book has holes.
     */
    public void resync(final int session) {
        final List<Subscription> subs = bySession.get(session);
        for (int i = 0; i < subs.size(); i++) {
            stale(subs.get(i));
        }
    }

    /** An events excerpt that could not be decoded: the books may differ from the engine's ({@link MarketBooks#undecodable}). */
    public void undecodable(final long index) {
        market.undecodable(index);
    }

    /**
     * The books learn the event; false when that failed (a bug, or an event unlike any the engine writes): the gateway goes
     * on, the books are as doubtful as after an undecodable event, and the subscriptions of what it touched so far get a
     * fresh W.
     */
    private boolean applied(final Result r) {
        if (market.apply(r)) {
            return true;
        }
        resyncTouched();
        return false;
    }

    /** Collects and sends the subscription's X for the event just applied (nothing when nothing it sees changed). */
    private void incremental(final Subscription sub, final Result r) {
        final SymbolState s = sub.symbol;
        entries = 0;
        if (sub.depth == 0) {
            final int changes = r.levelChangeCount();
            for (int i = 0; i < changes; i++) {
                final LevelChange c = r.levelChange(i);
                final int side = c.side == Side.BUY ? 0 : 1;
                if (c.symbol != s.config.id() || !sub.wants(side) || market.applied(i) == Books.NONE) {
                    continue;
                }
                final int applied = market.applied(i);
                final int action = applied == Books.ADDED ? ACTION_NEW : applied == Books.CHANGED ? ACTION_CHANGE : ACTION_DELETE;
                add(action, side, c.price, c.quantity, c.orderCount);
            }
        } else {
            for (int side = 0; side < 2; side++) {
                if (sub.wants(side) && (s.touchedSides & (1 << side)) != 0) {
                    diff(sub, side);
                }
            }
        }
        if (sub.trades && s.traded) {
            for (int i = 0; i < r.fillCount(); i++) {
                final Fill f = r.fill(i);
                add(ACTION_NEW, TYPE_TRADE, f.price, f.quantity, 0);
            }
        }
        sendEntries(sub);
    }

    /**
     * Sends the entries collected as X (deletes first: a client that keeps at most N levels never
     * holds N + 1 while applying a depth-N update), as many as one message of maxMessageLength holds in each.
     */
    private void sendEntries(final Subscription sub) {
        final SymbolState s = sub.symbol;
        int n = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < entries; i++) {
                if ((entryAction[i] == ACTION_DELETE) == (pass == 0)) {
                    entryOrder[n++] = i;
                }
            }
        }
        final int room = room(sub.mdReqId.length + s.name.length);
        int to = 0;
        while (to < n) {
            final int from = to;
            int bytes = 0;
            while (to < n && (to == from || bytes + xBytes(s, entryOrder[to]) <= room)) {
                bytes += xBytes(s, entryOrder[to]);
                to++;
            }
            final FixEncoder e = out.begin(sub.session, FixMsgTypes.MARKET_DATA_INCREMENTAL_REFRESH);
            e.addAscii(FixTags.MD_REQ_ID, sub.mdReqId);
            e.addLong(FixTags.NO_MD_ENTRIES, to - from);
            for (int k = from; k < to; k++) {
                entry(e, s, entryOrder[k]);
            }
            out.end();
            incrementals++;
            sessionIncrementals[sub.session]++;
        }
        if (n > 0) {
            counts(sub.session);
        }
    }

    /** Bytes of maxMessageLength left for the entries of a W or X with an MDReqID and symbol this long. */
    private int room(final int idAndSymbolBytes) {
        return maxMessageLength - MESSAGE_OVERHEAD - idAndSymbolBytes;
    }

    /** At least the bytes of the X entry collected at i: 279=a| 269=t| 55=symbol| and the values (a delete has no size). */
    private int xBytes(final SymbolState s, final int i) {
        return 6 + 6 + 4 + s.name.length + entryBytes(s, entryPrice[i], entryQuantity[i], entryOrders[i]);
    }

    /** At least the bytes of a W entry of the level at rank r: 269=t| 290=r| and the values. */
    private static int wBytes(final SymbolState s, final Books.Levels levels, final int r) {
        return 6 + 5 + digits(r + 1) + entryBytes(s, levels.price(r), levels.quantity(r), levels.orders(r));
    }

    /** 270=price| 271=size| 346=orders|, at least as long as encoded (a price may need a sign, a point and leading zeros). */
    private static int entryBytes(final SymbolState s, final long price, final long quantity, final int orders) {
        return 5 + Math.max(digits(price), s.config.priceDecimals() + 1) + 2 + 5 + digits(quantity) + 5 + digits(orders);
    }

    /** Decimal digits of the value's magnitude, plus one for a sign. */
    private static int digits(final long value) {
        long v = value;
        int n = v < 0 ? 2 : 1;
        while (v >= 10 || v <= -10) {
            v /= 10;
            n++;
        }
        return n;
    }

    /** How many of the symbol's best levels (bids, then offers) one W with this MDReqID holds (at least one). */
    private int snapshotFit(final SymbolState s, final int idLength, final int nb, final int no) {
        final int room = room(idLength + s.name.length);
        int bytes = 0;
        int fit = 0;
        for (int side = 0; side < 2; side++) {
            final Books.Levels levels = s.sides[side];
            final int n = side == 0 ? nb : no;
            for (int r = 0; r < n; r++) {
                bytes += wBytes(s, levels, r);
                if (bytes > room && fit > 0) {
                    return fit;
                }
                fit++;
            }
        }
        return fit;
    }

    private void entry(final FixEncoder e, final SymbolState s, final int i) {
        e.addLong(FixTags.MD_UPDATE_ACTION, entryAction[i]);
        e.addChar(FixTags.MD_ENTRY_TYPE, (char) ('0' + entryType[i]));
        e.addAscii(FixTags.SYMBOL, s.name);
        e.addDecimal(FixTags.MD_ENTRY_PX, entryPrice[i], s.config.priceDecimals());
        if (entryAction[i] != ACTION_DELETE) {
            e.addLong(FixTags.MD_ENTRY_SIZE, entryQuantity[i]);
            if (entryType[i] != TYPE_TRADE) {
                e.addLong(FixTags.NUMBER_OF_ORDERS, entryOrders[i]);
            }
        }
    }

    /**
     * Depth N: the entries that turn the top N the client holds into the book's top N now (a level leaving the top N is
     * deleted, one entering it is new, one whose quantity or order count moved is changed), then remembers the new top N.
     */
    private void diff(final Subscription sub, final int side) {
        final Books.Levels levels = sub.symbol.sides[side];
        final long[] prices = sub.prices[side];
        final long[] quantities = sub.quantities[side];
        final int[] orders = sub.orders[side];
        final int held = sub.sizes[side];
        final int now = Math.min(sub.depth, levels.size());
        int i = 0;
        int j = 0;
        while (i < held || j < now) {
            if (j >= now || (i < held && better(side, prices[i], levels.price(j)))) {
                add(ACTION_DELETE, side, prices[i], 0, 0);
                i++;
            } else if (i >= held || better(side, levels.price(j), prices[i])) {
                add(ACTION_NEW, side, levels.price(j), levels.quantity(j), levels.orders(j));
                j++;
            } else {
                if (quantities[i] != levels.quantity(j) || orders[i] != levels.orders(j)) {
                    add(ACTION_CHANGE, side, levels.price(j), levels.quantity(j), levels.orders(j));
                }
                i++;
                j++;
            }
        }
        sub.remember(side, levels);
    }

    private static boolean better(final int side, final long a, final long b) {
        return side == 0 ? a > b : a < b;
    }

    private void add(final int action, final int type, final long price, final long quantity, final int orderCount) {
        if (entries == entryAction.length) {
            final int n = entries * 2;
            entryAction = java.util.Arrays.copyOf(entryAction, n);
            entryType = java.util.Arrays.copyOf(entryType, n);
            entryPrice = java.util.Arrays.copyOf(entryPrice, n);
            entryQuantity = java.util.Arrays.copyOf(entryQuantity, n);
            entryOrders = java.util.Arrays.copyOf(entryOrders, n);
            entryOrder = new int[n];
        }
        entryAction[entries] = action;
        entryType[entries] = type;
        entryPrice[entries] = price;
        entryQuantity[entries] = quantity;
        entryOrders[entries] = orderCount;
        entries++;
    }

    // ------------------------------------------------------------------ slow subscribers

    private void markStale(final int session, final boolean slow) {
        final boolean already = sessionStale[session];
        final List<Subscription> subs = bySession.get(session);
        for (int i = 0; i < subs.size(); i++) {
            // Each one, even when the session was stale already: one created since, or left live by an earlier resync of
            // other symbols, misses this event's X too.
            stale(subs.get(i));
        }
        if (slow && !already) {
            staleEpisodes++;
            sessionStaleEpisodes[session]++;
            final int episode = ++sessionEpisodes[session];
            // A client that stopped reading goes through a few episodes while its kernel buffer fills: not a line each.
            if ((episode & (episode - 1)) == 0) {
                out.log("market data: session " + out.name(session) + " has more than " + maxBacklog + " messages waiting for its"
                    + " socket: no updates for its " + subs.size() + " subscriptions until it has caught up, then a fresh snapshot"
                    + " each (episode " + episode + " of this connection)");
            }
        }
        counts(session);
    }

    private void counts(final int session) {
        out.counts(session, bySession.get(session).size(), sessionStale[session], sessionStaleEpisodes[session],
            sessionSnapshots[session], sessionIncrementals[session]);
    }

    /**
     * Once per loop pass: a session whose subscriptions went stale and whose backlog has drained gets a fresh W for each
     * (at the last event read, like any W) and its X resume. Returns how many snapshots were sent.
     */
    public int poll() {
        if (!anyStale) {
            return 0;
        }
        anyStale = false;
        int sent = 0;
        for (int session = 0; session < sessionStale.length; session++) {
            if (!sessionStale[session]) {
                continue;
            }
            if (!out.caughtUp(session)) {
                anyStale = true;
                continue;
            }
            sessionStale[session] = false;
            counts(session);
            final List<Subscription> subs = bySession.get(session);
            for (int i = 0; i < subs.size(); i++) {
                final Subscription sub = subs.get(i);
                if (sub.stale && resnapshot(sub)) {
                    sent++;
                }
            }
        }
        if (sent > 0) {
            out.commit();
        }
        return sent;
    }

    /**
     * A fresh W (and its status) for a stale subscription. A failure to build it (a bug) must not stop the gateway's loop:
     * it is logged, the subscription stays stale and is tried again at the next poll.
     */
    private boolean resnapshot(final Subscription sub) {
        try {
            sub.stale = false;
            snapshot(sub.session, sub.mdReqId, sub.symbol, sub.depth, sub.bids, sub.offers, sub);
            // Always: a halt or resume may have happened while it got no updates; "ready to trade" when not halted.
            status(sub.session, sub.mdReqId, sub.symbol, sub.symbol.halted ? HALTED : READY_TO_TRADE, false);
            resnapshots++;
            return true;
        } catch (final RuntimeException e) {
            stale(sub);
            final long failures = ++buildFailures;
            if ((failures & (failures - 1)) == 0) {
                out.log("market data: the snapshot of " + new String(sub.mdReqId, StandardCharsets.US_ASCII) + " for session "
                    + out.name(sub.session) + " could not be built (" + e + "); tried again at the next pass (failure " + failures
                    + ")");
            }
            return false;
        }
    }

    // ------------------------------------------------------------------ requests

    /** The session's connection ended (logout, disconnect, a new logon): its subscriptions end with it. */
    public void sessionEnded(final int session) {
        final List<Subscription> subs = bySession.get(session);
        for (int i = 0; i < subs.size(); i++) {
            subs.get(i).symbol.subscriptions.remove(subs.get(i));
        }
        live -= subs.size();
        subs.clear();
        sessionStale[session] = false;
        sessionEpisodes[session] = 0;
        counts(session);
    }

    /** Live subscriptions of every session. */
    public int subscriptions() {
        return live;
    }

    /** A MarketDataRequest (V) that passed the session's checks (in sequence, valid against the FIX 4.4 dictionary). */
    public void onRequest(final int session, final FixDecoder m) {
        final String why = check(session, m);
        if (why != null) {
            out.commit();
            return;
        }
        final byte[] id = copy(m, FixTags.MD_REQ_ID);
        final char type = m.charValue(FixTags.SUBSCRIPTION_REQUEST_TYPE);
        if (type == '2') {
            unsubscribe(session, m, id);
            out.commit();
            return;
        }
        final int depth = (int) m.longValue(FixTags.MARKET_DEPTH);
        boolean bids = false;
        boolean offers = false;
        boolean trades = false;
        for (int i = 0; i < m.fieldCount(); i++) {
            if (m.tagAt(i) == FixTags.MD_ENTRY_TYPE) {
                final byte b = m.buffer().getByte(m.valueOffsetAt(i));
                bids |= b == '0';
                offers |= b == '1';
                trades |= b == '2';
            }
        }
        final int count = requestedSymbols(m);
        for (int k = 0; k < count; k++) {
            final SymbolState s = requested[k];
            Subscription sub = null;
            if (type == '1') {
                sub = new Subscription(session, id, s, depth, bids, offers, trades);
                s.subscriptions.add(sub);
                bySession.get(session).add(sub);
                live++;
            }
            snapshot(session, id, s, depth, bids, offers, sub);
            if (s.halted) {
                status(session, id, s, HALTED, false);
            }
        }
        out.commit();
    }

    /** Sends the Y and returns its text when the request cannot be served; null when it can. */
    private String check(final int session, final FixDecoder m) {
        if (!allowed[session]) {
            return reject(session, m, INSUFFICIENT_PERMISSIONS, "market data is not enabled for this session (gateway.yaml marketData)");
        }
        final char type = m.charValue(FixTags.SUBSCRIPTION_REQUEST_TYPE);
        if (type != '0' && type != '1' && type != '2') {
            return reject(session, m, UNSUPPORTED_SUBSCRIPTION_REQUEST_TYPE, "SubscriptionRequestType (263) must be 0, 1 or 2");
        }
        if (type == '2') {
            return null;
        }
        if (out.backlog(session) > maxBacklog) {
            // Its subscriptions are stale already; a flood of snapshot requests must not grow the store without bound.
            return reject(session, m, INSUFFICIENT_BANDWIDTH, "more than " + maxBacklog + " messages are waiting for this"
                + " session's socket (gateway.yaml marketDataMaxBacklog): ask again once it has caught up");
        }
        final long depth = m.longValue(FixTags.MARKET_DEPTH);
        if (depth < 0 || depth > MAX_DEPTH) {
            return reject(session, m, UNSUPPORTED_MARKET_DEPTH, "MarketDepth (264) must be 0 (full book) or 1.." + MAX_DEPTH);
        }
        if (type == '1' && m.has(FixTags.MD_UPDATE_TYPE) && m.longValue(FixTags.MD_UPDATE_TYPE) != 1) {
            return reject(session, m, UNSUPPORTED_MD_UPDATE_TYPE, "only MDUpdateType (265) 1, incremental refresh, is supported");
        }
        if (m.has(FixTags.AGGREGATED_BOOK) && !m.booleanValue(FixTags.AGGREGATED_BOOK)) {
            return reject(session, m, UNSUPPORTED_AGGREGATED_BOOK, "only an aggregated book (266=Y) is published: one entry per price");
        }
        for (int i = 0; i < m.fieldCount(); i++) {
            if (m.tagAt(i) == FixTags.MD_ENTRY_TYPE && (m.valueLengthAt(i) != 1 || m.buffer().getByte(m.valueOffsetAt(i)) < '0'
                || m.buffer().getByte(m.valueOffsetAt(i)) > '2')) {
                return reject(session, m, UNSUPPORTED_MD_ENTRY_TYPE, "MDEntryType (269) "
                    + m.buffer().getStringWithoutLengthAscii(m.valueOffsetAt(i), m.valueLengthAt(i))
                    + " is not supported: 0 bid, 1 offer and 2 trade are");
            }
        }
        for (int i = 0; i < m.fieldCount(); i++) {
            if (m.tagAt(i) == FixTags.SYMBOL && symbolAt(m, i) == null) {
                return reject(session, m, UNKNOWN_SYMBOL, "unknown symbol "
                    + m.buffer().getStringWithoutLengthAscii(m.valueOffsetAt(i), m.valueLengthAt(i)));
            }
        }
        final int count = requestedSymbols(m);
        if (count == 0) {
            return reject(session, m, UNKNOWN_SYMBOL, "no Symbol (55) in NoRelatedSym (146)");
        }
        if (type == '1' && bySession.get(session).size() + count > maxSubscriptions) {
            return reject(session, m, INSUFFICIENT_BANDWIDTH, "this session holds " + bySession.get(session).size()
                + " subscriptions; at most " + maxSubscriptions + " are allowed (gateway.yaml marketDataMaxSubscriptions)");
        }
        if (type == '0') {
            final String tooDeep = tooDeep(session, m, count, (int) depth);
            if (tooDeep != null) {
                return tooDeep;
            }
        }
        final byte[] id = copy(m, FixTags.MD_REQ_ID);
        final List<Subscription> subs = bySession.get(session);
        for (int i = 0; i < subs.size(); i++) {
            if (subs.get(i).sameId(id)) {
                return reject(session, m, DUPLICATE_MD_REQ_ID, "MDReqID " + new String(id, StandardCharsets.US_ASCII)
                    + " is a live subscription of this session");
            }
        }
        return null;
    }

    /**
     * A snapshot-only request whose W would not fit in one message of maxMessageLength (a subscription gets the rest as X):
     * refused with the depth that fits.
     */
    private String tooDeep(final int session, final FixDecoder m, final int count, final int depth) {
        boolean bids = false;
        boolean offers = false;
        for (int i = 0; i < m.fieldCount(); i++) {
            if (m.tagAt(i) == FixTags.MD_ENTRY_TYPE) {
                final byte b = m.buffer().getByte(m.valueOffsetAt(i));
                bids |= b == '0';
                offers |= b == '1';
            }
        }
        final int idLength = m.valueLength(FixTags.MD_REQ_ID);
        for (int k = 0; k < count; k++) {
            final SymbolState s = requested[k];
            final int nb = bids ? shown(s.sides[0], depth) : 0;
            final int no = offers ? shown(s.sides[1], depth) : 0;
            final int n = nb + no;
            final int fit = snapshotFit(s, idLength, nb, no);
            if (n > fit) {
                return reject(session, m, UNSUPPORTED_MARKET_DEPTH, "a snapshot of " + s.config.name() + " would hold " + n
                    + " entries; one message holds " + fit + ": ask for MarketDepth (264) " + Math.max(1, fit / 2)
                    + " or less, or subscribe (263=1), which sends the rest as incremental refreshes");
            }
        }
        return null;
    }

    private void unsubscribe(final int session, final FixDecoder m, final byte[] id) {
        final List<Subscription> subs = bySession.get(session);
        int removed = 0;
        for (int i = subs.size() - 1; i >= 0; i--) {
            final Subscription sub = subs.get(i);
            if (sub.sameId(id)) {
                sub.symbol.subscriptions.remove(sub);
                subs.remove(i);
                removed++;
            }
        }
        live -= removed;
        counts(session);
        if (removed == 0) {
            reject(session, m, NO_REASON, "unsubscribe: MDReqID " + new String(id, StandardCharsets.US_ASCII)
                + " is not a live subscription of this session");
        }
    }

    /** The request's symbols into {@link #requested}, each once; returns how many. */
    private int requestedSymbols(final FixDecoder m) {
        int count = 0;
        for (int i = 0; i < m.fieldCount(); i++) {
            if (m.tagAt(i) != FixTags.SYMBOL) {
                continue;
            }
            final SymbolState s = symbolAt(m, i);
            boolean seen = false;
            for (int k = 0; k < count; k++) {
                seen |= requested[k] == s;
            }
            if (s != null && !seen) {
                requested[count++] = s;
            }
        }
        return count;
    }

    private SymbolState symbolAt(final FixDecoder m, final int field) {
        final DirectBuffer b = m.buffer();
        final int offset = m.valueOffsetAt(field);
        final int length = m.valueLengthAt(field);
        for (final SymbolState s : symbolList) {
            if (s.name.length == length) {
                boolean same = true;
                for (int k = 0; k < length && same; k++) {
                    same = b.getByte(offset + k) == s.name[k];
                }
                if (same) {
                    return s;
                }
            }
        }
        return null;
    }

    private static byte[] copy(final FixDecoder m, final int tag) {
        final byte[] bytes = new byte[m.valueLength(tag)];
        m.buffer().getBytes(m.valueOffset(tag), bytes);
        return bytes;
    }

    private String reject(final int session, final FixDecoder m, final int reason, final String text) {
        final FixEncoder e = out.begin(session, FixMsgTypes.MARKET_DATA_REQUEST_REJECT);
        e.addBytes(FixTags.MD_REQ_ID, m.buffer(), m.valueOffset(FixTags.MD_REQ_ID), m.valueLength(FixTags.MD_REQ_ID));
        if (reason != NO_REASON) {
            e.addLong(FixTags.MD_REQ_REJ_REASON, reason);
        }
        e.addAscii(FixTags.TEXT, text);
        out.end();
        rejects++;
        return text;
    }

    /**
     * A W of the symbol's book as of the last event read: bids best first, then offers best first, up to the depth; for a
     * live depth-N subscription, that top N becomes what its X are diffed against.
     */
    private void snapshot(final int session, final byte[] id, final SymbolState s, final int depth, final boolean bids,
                          final boolean offers, final Subscription sub) {
        final int nb = bids ? shown(s.sides[0], depth) : 0;
        final int no = offers ? shown(s.sides[1], depth) : 0;
        // A book deeper than one message holds (only a subscription gets here with one): the W has its best levels, bids
        // first, and X adding the others (MDUpdateAction 0) follow at once, so no message outgrows maxMessageLength.
        final int fit = snapshotFit(s, id.length, nb, no);
        final int wb = Math.min(nb, fit);
        final int wo = Math.min(no, fit - wb);
        final FixEncoder e = out.begin(session, FixMsgTypes.MARKET_DATA_SNAPSHOT_FULL_REFRESH);
        e.addAscii(FixTags.MD_REQ_ID, id);
        e.addAscii(FixTags.SYMBOL, s.name);
        e.addLong(FixTags.NO_MD_ENTRIES, wb + wo);
        levels(e, s, 0, wb);
        levels(e, s, 1, wo);
        out.end();
        snapshots++;
        sessionSnapshots[session]++;
        counts(session);
        if (sub != null && wb + wo < nb + no) {
            entries = 0;
            for (int side = 0; side < 2; side++) {
                final Books.Levels l = s.sides[side];
                for (int r = side == 0 ? wb : wo; r < (side == 0 ? nb : no); r++) {
                    add(ACTION_NEW, side, l.price(r), l.quantity(r), l.orders(r));
                }
            }
            sendEntries(sub);
        }
        if (sub != null && depth > 0) {
            for (int side = 0; side < 2; side++) {
                if (sub.wants(side)) {
                    sub.remember(side, s.sides[side]);
                }
            }
        }
    }

    private static int shown(final Books.Levels levels, final int depth) {
        return depth == 0 ? levels.size() : Math.min(depth, levels.size());
    }

    private static void levels(final FixEncoder e, final SymbolState s, final int side, final int n) {
        final Books.Levels levels = s.sides[side];
        for (int r = 0; r < n; r++) {
            e.addChar(FixTags.MD_ENTRY_TYPE, (char) ('0' + side));
            e.addDecimal(FixTags.MD_ENTRY_PX, levels.price(r), s.config.priceDecimals());
            e.addLong(FixTags.MD_ENTRY_SIZE, levels.quantity(r));
            e.addLong(FixTags.NUMBER_OF_ORDERS, levels.orders(r));
            e.addLong(FixTags.MD_ENTRY_POSITION_NO, r + 1);
        }
    }

    /**
     * SecurityStatus (f) for a subscription: 326 = 2 halted, 3 resumed (a RESUME event), 17 ready to trade (the status after
     * a fresh W of a symbol not halted); unsolicited when a halt or resume caused it.
     */
    private void status(final int session, final byte[] id, final SymbolState s, final int tradingStatus, final boolean change) {
        final FixEncoder e = out.begin(session, FixMsgTypes.SECURITY_STATUS);
        e.addAscii(FixTags.SECURITY_STATUS_REQ_ID, id);
        e.addAscii(FixTags.SYMBOL, s.name);
        e.addBoolean(FixTags.UNSOLICITED_INDICATOR, change);
        e.addLong(FixTags.SECURITY_TRADING_STATUS, tradingStatus);
        out.end();
        statuses++;
    }

    /** For the gateway's status line. */
    public String status() {
        return live + " market-data subscriptions, " + snapshots + " W, " + incrementals + " X, " + statuses + " f, " + rejects
            + " Y, " + staleEpisodes + " slow-subscriber episodes (" + resnapshots + " re-snapshots)"
            + (market.unappliedEvents() == 0 ? "" : ", books doubtful: " + market.unappliedEvents() + " events not applied")
            + (buildFailures == 0 ? "" : ", " + buildFailures + " snapshots failed to build");
    }
}
