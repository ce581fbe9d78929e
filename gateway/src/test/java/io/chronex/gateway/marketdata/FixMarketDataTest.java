package io.chronex.gateway.marketdata;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.engine.MatchingEngine;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.core.FundedEngine;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import quickfix.DataDictionary;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The market-data component without sockets: a random stream of commands runs through the real matching engine, every
 * result goes to {@link MarketDataService} as the gateway hands it over, and clients rebuild their books from the W and X
 * it writes (parsed back from the bytes, each message also validated by QuickFIX/J's FIX 4.4 dictionary). After every
 * event the full-depth books equal the engine's and the depth-10 book its top 10; trades and halts/resumes arrive; a slow
 * subscriber gets no X while its backlog is over the limit and a fresh W after it drains. Each Y reason is checked.
 */
class FixMarketDataTest {
    private static final List<GatewayConfig.Symbol> SYMBOLS = List.of(new GatewayConfig.Symbol(1, "ACME", 2, 1, 1),
        new GatewayConfig.Symbol(2, "GLOBEX", 2, 1, 1));
    private static final int MAX_BACKLOG = 100;
    private static final int MAX_SUBSCRIPTIONS = 10;

    private final Capture out = new Capture();
    private MarketDataService md;
    private DataDictionary dictionary;

    /** A message as its client sees it: type and fields in order. */
    record Msg(int session, String type, List<String[]> fields) {
        String get(final String tag) {
            for (final String[] f : fields) {
                if (f[0].equals(tag)) {
                    return f[1];
                }
            }
            return null;
        }
    }

    /** The messages written, parsed back; each also passes QuickFIX/J's FIX 4.4 validation. */
    final class Capture implements MarketDataService.Output {
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1 << 22]);
        private final FixEncoder encoder = new FixEncoder(buffer);
        private final int[] seq = new int[3];
        final int[] backlog = new int[3];
        final List<Msg> messages = new ArrayList<>();
        /** The longest message written, in bytes. */
        int longest;
        /** By session, the last counts reported for the sessions file: subscriptions, stale (1/0), episodes, W, X. */
        final long[][] counts = new long[3][5];
        private int session;

        @Override
        public void counts(final int s, final int subscriptions, final boolean stale, final long staleEpisodes, final long snapshots,
                           final long incrementals) {
            counts[s] = new long[] {subscriptions, stale ? 1 : 0, staleEpisodes, snapshots, incrementals};
        }

        /** Messages of a type sent to a session. */
        long sent(final int s, final String type) {
            return messages.stream().filter(m -> m.session() == s && m.type().equals(type)).count();
        }

        @Override
        public FixEncoder begin(final int s, final int msgType) {
            session = s;
            encoder.start(0, msgType);
            encoder.addAscii(49, "CHRONEX");
            encoder.addAscii(56, "C" + s);
            encoder.addLong(34, ++seq[s]);
            encoder.addUtcTimestamp(52, System.currentTimeMillis());
            return encoder;
        }

        @Override
        public void end() {
            final int length = encoder.finish();
            longest = Math.max(longest, length);
            final String text = buffer.getStringWithoutLengthAscii(encoder.messageOffset(), length);
            try {
                final quickfix.Message m = new quickfix.Message(text, dictionary, true);
                dictionary.validate(m);
            } catch (final Exception e) {
                throw new AssertionError("QuickFIX/J refuses " + text.replace('\u0001', '|') + ": " + e, e);
            }
            final List<String[]> fields = new ArrayList<>();
            for (final String f : text.split("\u0001")) {
                fields.add(f.split("=", 2));
            }
            final Msg msg = new Msg(session, fields.get(2)[1], fields);
            messages.add(msg);
            clients.get(session).on(msg);
        }

        @Override
        public void commit() {
        }

        @Override
        public int backlog(final int s) {
            return backlog[s];
        }

        @Override
        public boolean caughtUp(final int s) {
            return backlog[s] == 0;
        }

        @Override
        public void log(final String line) {
        }

        @Override
        public String name(final int s) {
            return "C" + s;
        }
    }

    /** One client: books per MDReqID and symbol, built from W and X only; trades and trading status as received. */
    static final class Client {
        final Map<String, List<TreeMap<Long, long[]>>> books = new HashMap<>();
        final Map<String, Boolean> halted = new HashMap<>();
        long tradeQuantity;
        int trades;

        List<TreeMap<Long, long[]>> book(final String key) {
            return books.computeIfAbsent(key, k -> List.of(new TreeMap<>(), new TreeMap<>()));
        }

        void on(final Msg m) {
            switch (m.type()) {
                case "W" -> snapshot(m);
                case "X" -> incremental(m);
                case "f" -> halted.put(m.get("324") + "/" + m.get("55"), "2".equals(m.get("326")));
                default -> {
                }
            }
        }

        private void snapshot(final Msg m) {
            final List<TreeMap<Long, long[]>> book = book(m.get("262") + "/" + m.get("55"));
            book.get(0).clear();
            book.get(1).clear();
            int side = -1;
            long price = 0;
            long size = 0;
            int entries = 0;
            for (final String[] f : m.fields()) {
                switch (f[0]) {
                    case "269" -> side = Integer.parseInt(f[1]);
                    case "270" -> price = ticks(f[1]);
                    case "271" -> size = Long.parseLong(f[1]);
                    case "346" -> {
                        assertNull(book.get(side).put(price, new long[] {size, Long.parseLong(f[1])}), "a price twice in a W");
                        entries++;
                    }
                    default -> {
                    }
                }
            }
            assertEquals(Integer.parseInt(m.get("268")), entries, m.fields().toString());
        }

        private void incremental(final Msg m) {
            final String id = m.get("262");
            final List<String[]> f = m.fields();
            int entries = 0;
            for (int i = 0; i < f.size(); i++) {
                if (!f.get(i)[0].equals("279")) {
                    continue;
                }
                entries++;
                final int action = Integer.parseInt(f.get(i)[1]);
                final Map<String, String> e = new HashMap<>();
                for (int k = i + 1; k < f.size() && !f.get(k)[0].equals("279") && !f.get(k)[0].equals("10"); k++) {
                    e.put(f.get(k)[0], f.get(k)[1]);
                }
                final int type = Integer.parseInt(e.get("269"));
                final long price = ticks(e.get("270"));
                if (type == 2) {
                    trades++;
                    tradeQuantity += Long.parseLong(e.get("271"));
                    continue;
                }
                final TreeMap<Long, long[]> side = book(id + "/" + e.get("55")).get(type);
                if (action == 2) {
                    assertNotNull(side.remove(price), "delete of a level not held: " + e);
                } else {
                    final long[] level = {Long.parseLong(e.get("271")), Long.parseLong(e.get("346"))};
                    final long[] before = side.put(price, level);
                    assertEquals(action == 1, before != null,
                        (action == 1 ? "change of a level not held: " : "new level already held: ") + e);
                }
            }
            assertEquals(Integer.parseInt(m.get("268")), entries);
        }
    }

    private final List<Client> clients = List.of(new Client(), new Client(), new Client());

    private static long ticks(final String price) {
        return new BigDecimal(price).movePointRight(2).longValueExact();
    }

    @BeforeEach
    void setUp() throws Exception {
        dictionary = new DataDictionary("FIX44.xml");
        // Session 2 has no market-data permission.
        md = new MarketDataService(SYMBOLS, new boolean[] {true, true, false}, MAX_BACKLOG, MAX_SUBSCRIPTIONS, 4096, out);
    }

    /** A V as a client sends it, decoded as the gateway hands it over. */
    private void request(final int session, final String mdReqId, final char type, final int depth, final String extra,
                         final String entryTypes, final String... symbols) {
        final StringBuilder body = new StringBuilder("262=" + mdReqId + "\u0001263=" + type + "\u0001264=" + depth + "\u0001" + extra);
        body.append("267=").append(entryTypes.length()).append('\u0001');
        for (final char c : entryTypes.toCharArray()) {
            body.append("269=").append(c).append('\u0001');
        }
        body.append("146=").append(symbols.length).append('\u0001');
        for (final String s : symbols) {
            body.append("55=").append(s).append('\u0001');
        }
        final UnsafeBuffer b = new UnsafeBuffer(new byte[4096]);
        final FixEncoder e = new FixEncoder(b);
        e.start(0, FixMsgTypes.MARKET_DATA_REQUEST);
        e.addAscii(49, "C" + session);
        e.addAscii(56, "CHRONEX");
        e.addLong(34, 1);
        e.addUtcTimestamp(52, System.currentTimeMillis());
        final String fields = body.toString();
        for (final String f : fields.split("\u0001")) {
            final String[] kv = f.split("=", 2);
            e.addAscii(Integer.parseInt(kv[0]), kv[1]);
        }
        final int length = e.finish();
        final FixDecoder d = new FixDecoder(true);
        assertEquals(FixDecoder.OK, d.decode(b, e.messageOffset(), length));
        md.onRequest(session, d);
    }

    private void assertBook(final MatchingEngine engine, final Client client, final String key, final int symbol, final int depth,
                            final String when) {
        assertBook(engine, client, key, symbol, depth, when, Side.values());
    }

    /** The client's book of those sides equals the engine's (its top depth levels; 0: all), price by price. */
    private void assertBook(final MatchingEngine engine, final Client client, final String key, final int symbol, final int depth,
                            final String when, final Side... sides) {
        final List<TreeMap<Long, long[]>> book = client.book(key);
        for (final Side side : sides) {
            final TreeMap<Long, long[]> held = book.get(side == Side.BUY ? 0 : 1);
            final int levels = engine.levelCount(symbol, side);
            final int shown = depth == 0 ? levels : Math.min(depth, levels);
            assertEquals(shown, held.size(), key + " " + side + " levels " + when);
            for (int r = 0; r < shown; r++) {
                final long price = engine.levelPrice(symbol, side, r);
                final long[] level = held.get(price);
                assertNotNull(level, key + " " + side + " has no level at " + price + " " + when);
                assertEquals(engine.levelQuantity(symbol, side, r), level[0], key + " quantity at " + price + " " + when);
                assertEquals(engine.levelOrderCount(symbol, side, r), level[1], key + " orders at " + price + " " + when);
            }
        }
    }

    /** An engine core on the shipped configuration with every account funded ({@link FundedEngine}). */
    private static MatchingEngine fundedEngine() throws Exception {
        return FundedEngine.create();
    }

    @Test
    void booksBuiltFromSnapshotAndIncrementalsEqualTheEnginesAfterEveryEvent() throws Exception {
        final MatchingEngine engine = fundedEngine();
        final Random random = new Random(22);
        final Command c = new Command();
        final Result r = new Result();
        final List<long[]> live = new ArrayList<>();
        long nextId = 1;
        long filled = 0;
        int fills = 0;
        boolean halted = false;
        final int commands = 4000;
        for (int n = 0; n < commands; n++) {
            if (n == 300) {
                request(0, "full", '1', 0, "265=1\u0001", "012", "ACME", "GLOBEX");
                request(0, "top10", '1', 10, "", "01", "ACME");
                request(1, "top3-bids", '1', 3, "", "0", "ACME");
                // One per symbol: "full" names two.
                assertEquals(4, md.subscriptions());
            }
            if (n == 1500) {
                out.backlog[0] = MAX_BACKLOG + 1;
            }
            final int beforeSlow = out.messages.size();
            final int roll = random.nextInt(100);
            final int symbol = random.nextInt(10) < 8 ? 1 : 2;
            final long mid = symbol == 1 ? 10000 : 2500;
            final long account = 1 + random.nextInt(4);
            if (roll < 3 && n > 0) {
                c.symbolCommand(halted ? CommandType.RESUME : CommandType.HALT, 1);
                halted = !halted;
            } else if (roll < 25 && !live.isEmpty()) {
                final long[] o = live.remove(random.nextInt(live.size()));
                c.cancel(o[0], o[1]);
            } else if (roll < 27) {
                c.massCancel(account, symbol);
            } else if (roll < 35) {
                c.newOrder(account, symbol, nextId++, random.nextBoolean() ? Side.BUY : Side.SELL, OrderType.LIMIT, TimeInForce.IOC,
                    mid - 30 + random.nextInt(61), 1 + random.nextInt(80));
            } else {
                final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                final long price = mid + (side == Side.BUY ? -1 : 1) * (random.nextInt(40) - 5);
                c.limit(account, symbol, nextId, side, price, 1 + random.nextInt(50));
                live.add(new long[] {account, nextId++});
            }
            engine.apply(c, r);
            md.onEvent(r);
            for (int i = 0; i < r.fillCount(); i++) {
                if (n >= 300) {
                    filled += r.fill(i).quantity;
                    fills++;
                }
            }
            if (n >= 1500 && n < 1700) {
                // Over the limit: nothing for session 0 (the others go on); the sessions file says it is stale.
                assertEquals(1, out.counts[0][1], "stale while over the limit");
                assertEquals(1, out.counts[0][2], "one episode");
                for (int i = beforeSlow; i < out.messages.size(); i++) {
                    assertTrue(out.messages.get(i).session() != 0, "a message for the slow session: " + out.messages.get(i));
                }
                continue;
            }
            if (n == 1700) {
                out.backlog[0] = 0;
                assertEquals(3, md.poll(), "a fresh W per stale subscription of session 0");
                assertEquals(1, md.staleEpisodes);
            }
            if (n >= 300) {
                final String when = "after command " + n + " (" + r.commandType + ")";
                assertBook(engine, clients.get(0), "full/ACME", 1, 0, when);
                assertBook(engine, clients.get(0), "full/GLOBEX", 2, 0, when);
                assertBook(engine, clients.get(0), "top10/ACME", 1, 10, when);
                final List<TreeMap<Long, long[]>> top3 = clients.get(1).book("top3-bids/ACME");
                assertTrue(top3.get(1).isEmpty(), "offers not asked for");
                assertBook(engine, clients.get(1), "top3-bids/ACME", 1, 3, when, Side.BUY);
                assertEquals(halted, clients.get(0).halted.getOrDefault("full/ACME", false), "status of ACME " + when);
                assertEquals(halted, clients.get(0).halted.getOrDefault("top10/ACME", false), "status of ACME " + when);
                assertEquals(halted, md.halted(1));
            }
            if (n == 2500) {
                // A snapshot-only request: one W of the book now, no subscription.
                request(0, "once", '0', 0, "", "01", "ACME");
                assertBook(engine, clients.get(0), "once/ACME", 1, 0, "snapshot only");
                assertEquals(4, md.subscriptions());
                request(0, "top10", '2', 0, "", "01", "ACME");
                assertEquals(3, md.subscriptions());
                request(0, "top10", '1', 10, "", "01", "ACME");
            }
        }
        assertTrue(fills > 100, "trades happened: " + fills);
        // Trades of ACME in the slow stretch were not sent to session 0 (its X stopped), so compare the other way round:
        // every trade sent was a fill, and most fills were sent.
        assertTrue(clients.get(0).trades > 0 && clients.get(0).tradeQuantity <= filled, clients.get(0).trades + " trades");
        assertTrue(clients.get(1).trades == 0, "session 1 did not ask for trades");
        // What the gateway publishes per session (gateways/N/sessions) is what was sent.
        for (int s = 0; s < 2; s++) {
            assertArrayEquals(new long[] {s == 0 ? 3 : 1, 0, s == 0 ? 1 : 0, out.sent(s, "W"), out.sent(s, "X")}, out.counts[s],
                "session " + s + ": subscriptions, stale, episodes, W, X");
        }
        md.sessionEnded(0);
        assertEquals(0, out.counts[0][0], "a session's subscriptions end with its connection");
    }

    /**
     * Property: whatever happens to a session (over its backlog limit, under it but not yet caught up, caught up; events
     * handed over without their X; subscriptions made and ended meanwhile), once it has caught up and {@link
     * MarketDataService#poll} has run, every live subscription's book equals the engine's. A subscription that missed an X
     * must be stale itself, whether it was made while its session was stale or left live by an earlier resync of another
     * symbol.
     */
    @Test
    void everySubscriptionThatMissedAnXIsWholeAgainOnceItsSessionHasCaughtUp() throws Exception {
        final MatchingEngine engine = fundedEngine();
        final Random random = new Random(2201);
        final Command c = new Command();
        final Result r = new Result();
        final List<long[]> live = new ArrayList<>();
        final Map<String, int[]> subs = new TreeMap<>();
        long nextId = 1;
        int nextSub = 0;
        int madeWhileBehind = 0;
        int refused = 0;
        int unanswered = 0;
        for (int n = 0; n < 3000; n++) {
            final int roll = random.nextInt(100);
            if (roll < 6) {
                // Over the limit, under it but not caught up (a stale session stays stale), or caught up.
                final int state = random.nextInt(3);
                out.backlog[0] = state == 0 ? MAX_BACKLOG + 1 : state == 1 ? MAX_BACKLOG : 0;
            } else if (roll < 10 && subs.size() < MAX_SUBSCRIPTIONS) {
                final String id = "s" + nextSub++;
                final int depth = random.nextBoolean() ? 0 : 1 + random.nextInt(5);
                final int symbol = random.nextBoolean() ? 1 : 2;
                final String name = symbol == 1 ? "ACME" : "GLOBEX";
                request(0, id, '1', depth, "", "01", name);
                if (out.backlog[0] > MAX_BACKLOG) {
                    assertReject(id, "2", "marketDataMaxBacklog");
                    refused++;
                } else {
                    subs.put(id + "/" + name, new int[] {symbol, depth});
                    madeWhileBehind += out.backlog[0] > 0 ? 1 : 0;
                }
            } else if (roll < 12 && !subs.isEmpty()) {
                final String key = new ArrayList<>(subs.keySet()).get(random.nextInt(subs.size()));
                final String[] idAndSymbol = key.split("/");
                request(0, idAndSymbol[0], '2', 0, "", "01", idAndSymbol[1]);
                subs.remove(key);
            } else {
                final int symbol = random.nextInt(10) < 6 ? 1 : 2;
                final long mid = symbol == 1 ? 10000 : 2500;
                final long account = 1 + random.nextInt(4);
                if (roll < 30 && !live.isEmpty()) {
                    final long[] o = live.remove(random.nextInt(live.size()));
                    c.cancel(o[0], o[1]);
                } else if (roll < 32) {
                    c.massCancel(account, symbol);
                } else if (roll < 40) {
                    c.newOrder(account, symbol, nextId++, random.nextBoolean() ? Side.BUY : Side.SELL, OrderType.LIMIT,
                        TimeInForce.IOC, mid - 30 + random.nextInt(61), 1 + random.nextInt(80));
                } else {
                    final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
                    final long price = mid + (side == Side.BUY ? -1 : 1) * (random.nextInt(40) - 5);
                    c.limit(account, symbol, nextId, side, price, 1 + random.nextInt(50));
                    live.add(new long[] {account, nextId++});
                }
                engine.apply(c, r);
                if (random.nextInt(12) == 0) {
                    // Its reports failed: the subscriptions of the symbols it touched are resynced, the session marked stale.
                    md.onEventUnanswered(r);
                    unanswered++;
                } else {
                    md.onEvent(r);
                }
            }
            if (out.backlog[0] == 0) {
                md.poll();
                for (final Map.Entry<String, int[]> e : subs.entrySet()) {
                    assertBook(engine, clients.get(0), e.getKey(), e.getValue()[0], e.getValue()[1], "after step " + n);
                }
            }
        }
        assertTrue(madeWhileBehind > 5 && refused > 5 && unanswered > 50,
            madeWhileBehind + " made while behind, " + refused + " refused, " + unanswered + " unanswered");
    }

    /**
     * A book of 2,000 levels: no W or X is longer than maxMessageLength (the snapshot of a subscription goes out as a W of
     * its best levels and X adding the others; a sweep's and a mass cancel's X are split), and the books built from them
     * equal the engine's; a snapshot only of it is refused with the depth that fits.
     */
    @Test
    void aBookOfThousandsOfLevelsGoesOutInMessagesNoLongerThanTheLimit() throws Exception {
        final MatchingEngine engine = fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        request(0, "deep", '1', 0, "", "01", "ACME");
        request(1, "top", '1', MarketDataService.MAX_DEPTH, "", "01", "ACME");
        long id = 1;
        for (int i = 0; i < 999; i++) {
            engine.apply(c.limit(101, 1, id++, Side.BUY, 9001 + i, 1 + i % 7), r);
            md.onEvent(r);
            engine.apply(c.limit(101, 1, id++, Side.SELL, 10001 + i, 1 + i % 5), r);
            md.onEvent(r);
        }
        assertEquals(999, engine.levelCount(1, Side.BUY));
        assertEquals(999, engine.levelCount(1, Side.SELL));
        request(0, "late", '1', 0, "", "01", "ACME");
        request(1, "late-top", '1', MarketDataService.MAX_DEPTH, "", "01", "ACME");
        assertBook(engine, clients.get(0), "late/ACME", 1, 0, "after a snapshot bigger than a message");
        assertBook(engine, clients.get(1), "late-top/ACME", 1, MarketDataService.MAX_DEPTH, "after a snapshot bigger than a message");
        request(0, "once", '0', 0, "", "01", "ACME");
        assertReject("once", "5", "MarketDepth (264)");
        // The re-snapshot of a slow session goes out the same way.
        out.backlog[0] = MAX_BACKLOG + 1;
        engine.apply(c.cancel(101, 1), r);
        md.onEvent(r);
        out.backlog[0] = 0;
        assertEquals(2, md.poll());
        // A sweep through every bid level, then a mass cancel of every offer.
        engine.apply(c.newOrder(102, 1, id++, Side.SELL, OrderType.LIMIT, TimeInForce.IOC, 9001, 100_000), r);
        assertTrue(r.fillCount() > 900, r.fillCount() + " fills");
        md.onEvent(r);
        engine.apply(c.massCancel(101, 1), r);
        md.onEvent(r);
        for (final String key : List.of("deep/ACME", "late/ACME")) {
            assertBook(engine, clients.get(0), key, 1, 0, "after the sweep and the mass cancel");
        }
        for (final String key : List.of("top/ACME", "late-top/ACME")) {
            assertBook(engine, clients.get(1), key, 1, MarketDataService.MAX_DEPTH, "after the sweep and the mass cancel");
        }
        assertEquals(0, engine.levelCount(1, Side.BUY) + engine.levelCount(1, Side.SELL));
        assertTrue(out.longest <= 4096, "longest message " + out.longest + " bytes");
    }

    /** A resend gap-filled market data the client may not have had: every subscription of the session gets a fresh W. */
    @Test
    void aResyncedSessionGetsAFreshSnapshotPerSubscriptionOnceCaughtUp() throws Exception {
        final MatchingEngine engine = fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        request(0, "a", '1', 0, "", "01", "ACME");
        request(0, "g", '1', 2, "", "01", "GLOBEX");
        request(1, "other", '1', 0, "", "01", "ACME");
        out.backlog[0] = 1;
        md.resync(0);
        engine.apply(c.limit(1, 1, 1, Side.BUY, 9990, 5), r);
        final int before = out.messages.size();
        md.onEvent(r);
        assertEquals(List.of(1), out.messages.subList(before, out.messages.size()).stream().map(Msg::session).toList(),
            "no X for the resynced session, one for the other");
        assertEquals(0, md.poll(), "not before it has caught up");
        out.backlog[0] = 0;
        assertEquals(2, md.poll());
        assertBook(engine, clients.get(0), "a/ACME", 1, 0, "after the fresh W");
        assertBook(engine, clients.get(0), "g/GLOBEX", 2, 2, "after the fresh W");
    }

    /** An events excerpt that cannot be decoded cannot be repaired from the events: the status line says so. */
    @Test
    void anUndecodableEventMakesTheBooksDoubtfulInTheStatusLine() {
        assertFalse(md.status().contains("doubtful"), md.status());
        md.undecodable(0x42);
        md.undecodable(0x43);
        assertTrue(md.status().contains("books doubtful: 2 events not applied"), md.status());
    }

    @Test
    void tradesAreSentOnePerFill() throws Exception {
        final MatchingEngine engine = fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        request(0, "t", '1', 0, "", "2", "ACME");
        engine.apply(c.limit(1, 1, 1, Side.SELL, 10000, 5), r);
        md.onEvent(r);
        engine.apply(c.limit(2, 1, 2, Side.SELL, 10001, 5), r);
        md.onEvent(r);
        assertEquals(1, out.messages.size(), "only the W: no trade yet and levels not asked for");
        engine.apply(c.limit(3, 1, 3, Side.BUY, 10001, 7), r);
        md.onEvent(r);
        assertEquals(2, r.fillCount());
        final Msg x = out.messages.get(1);
        assertEquals("X", x.type());
        assertEquals("2", x.get("268"));
        assertEquals(2, clients.get(0).trades);
        assertEquals(7, clients.get(0).tradeQuantity);
        assertTrue(x.fields().stream().anyMatch(f -> f[0].equals("270") && f[1].equals("100.01")), x.fields().toString());
    }

    @Test
    void anEmptyBookIsASnapshotWithNoEntriesAndAHaltedSymbolIsSaidAfterTheSnapshot() {
        final Result r = new Result();
        r.reset(CommandType.HALT);
        r.symbol = 1;
        md.onEvent(r);
        request(0, "e", '1', 0, "", "01", "ACME");
        assertEquals(2, out.messages.size());
        assertEquals("W", out.messages.get(0).type());
        assertEquals("0", out.messages.get(0).get("268"));
        final Msg status = out.messages.get(1);
        assertEquals("f", status.type());
        assertEquals("e", status.get("324"));
        assertEquals("2", status.get("326"));
        assertEquals("N", status.get("325"));
        r.reset(CommandType.RESUME);
        r.symbol = 1;
        md.onEvent(r);
        assertEquals("3", out.messages.get(2).get("326"));
        assertEquals("Y", out.messages.get(2).get("325"));
        md.sessionEnded(0);
        assertEquals(0, md.subscriptions());
        r.reset(CommandType.HALT);
        r.symbol = 1;
        md.onEvent(r);
        assertEquals(3, out.messages.size(), "no status once the session ended");
    }

    @Test
    void anEventWithoutItsXGivesItsSubscribersAFreshSnapshotAtTheNextPoll() throws Exception {
        final MatchingEngine engine = fundedEngine();
        final Command c = new Command();
        final Result r = new Result();
        request(0, "a", '1', 0, "", "01", "ACME");
        request(0, "g", '1', 0, "", "01", "GLOBEX");
        engine.apply(c.limit(1, 1, 1, Side.BUY, 9990, 5), r);
        md.onEvent(r);
        assertEquals(3, out.messages.size());
        // Its reports failed (or it was built again after a crash): the books learn it, no X is built for it.
        engine.apply(c.limit(2, 1, 2, Side.SELL, 10010, 5), r);
        md.onEventUnanswered(r);
        assertEquals(3, out.messages.size());
        assertEquals(1, md.poll(), "a fresh W for the ACME subscription only");
        assertEquals(List.of("W", "f"), out.messages.subList(3, 5).stream().map(Msg::type).toList());
        assertEquals("17", out.messages.get(4).get("326"), "not halted after a fresh W: ready to trade, not resumed");
        assertBook(engine, clients.get(0), "a/ACME", 1, 0, "after the fresh snapshot");
        engine.apply(c.cancel(2, 2), r);
        md.onEvent(r);
        assertBook(engine, clients.get(0), "a/ACME", 1, 0, "X resume after it");
        assertEquals(0, md.poll());
    }

    @Test
    void eachUnsupportedRequestGetsAMarketDataRequestRejectWithItsReason() {
        request(0, "a", '1', 0, "", "01", "NOSUCH");
        assertReject("a", "0", "unknown symbol NOSUCH");
        request(0, "b", '1', 0, "", "01", "ACME");
        request(0, "b", '1', 5, "", "01", "GLOBEX");
        assertReject("b", "1", "live subscription");
        request(2, "c", '1', 0, "", "01", "ACME");
        assertReject("c", "3", "not enabled");
        request(0, "d", '7', 0, "", "01", "ACME");
        assertReject("d", "4", "SubscriptionRequestType");
        request(0, "e", '1', MarketDataService.MAX_DEPTH + 1, "", "01", "ACME");
        assertReject("e", "5", "MarketDepth");
        request(0, "f", '1', 0, "265=0\u0001", "01", "ACME");
        assertReject("f", "6", "MDUpdateType");
        request(0, "g", '1', 0, "266=N\u0001", "01", "ACME");
        assertReject("g", "7", "aggregated");
        request(0, "h", '1', 0, "", "05", "ACME");
        assertReject("h", "8", "MDEntryType (269) 5");
        request(0, "zz", '2', 0, "", "01", "ACME");
        assertReject("zz", null, "not a live subscription");
        assertEquals(1, md.subscriptions());
        assertEquals(9, md.rejects);
        // Over the session's backlog limit: no new W is built for it, not even a snapshot only.
        out.backlog[0] = MAX_BACKLOG + 1;
        request(0, "i", '0', 0, "", "01", "ACME");
        assertReject("i", "2", "marketDataMaxBacklog");
        out.backlog[0] = 0;
        // At most MAX_SUBSCRIPTIONS per session: a request that would go past it is refused whole.
        for (int k = 1; k < MAX_SUBSCRIPTIONS; k++) {
            request(0, "j" + k, '1', 0, "", "01", "ACME");
        }
        assertEquals(MAX_SUBSCRIPTIONS, md.subscriptions());
        request(0, "k", '1', 0, "", "01", "GLOBEX");
        assertReject("k", "2", "at most " + MAX_SUBSCRIPTIONS);
        assertEquals(MAX_SUBSCRIPTIONS, md.subscriptions());
        request(0, "j1", '2', 0, "", "01", "ACME");
        request(0, "k", '1', 0, "", "01", "GLOBEX");
        assertEquals("W", out.messages.get(out.messages.size() - 1).type(), "room again after an unsubscribe");
        assertEquals(11, md.rejects);
    }

    private void assertReject(final String id, final String reason, final String text) {
        final Msg y = out.messages.get(out.messages.size() - 1);
        assertEquals("Y", y.type(), y.fields().toString());
        assertEquals(id, y.get("262"));
        assertEquals(reason, y.get("281"));
        final String t = y.get("58");
        assertNotNull(t);
        assertTrue(t.contains(text), t);
        assertFalse(t.isEmpty());
    }
}
