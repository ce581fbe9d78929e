package io.chronex.gateway;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.LevelChange;
import io.chronex.api.Side;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventTail;
import io.chronex.queues.GatewaySessionsFile;
import io.chronex.queues.Hops;
import io.chronex.queues.book.Books;
import io.chronex.testing.Await;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.FieldNotFound;
import quickfix.Group;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.MDEntryType;
import quickfix.field.MDReqID;
import quickfix.field.MDUpdateType;
import quickfix.field.MarketDepth;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.SubscriptionRequestType;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.MarketDataRequest;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX market data end to end (engine and gateway processes): a QuickFIX/J client, validating every message against its
 * own FIX 4.4 dictionary, subscribes to ACME at full depth and at depth 10 while other sessions trade, and its books built
 * from W + X equal the book rebuilt from the events queue; an unknown symbol gets Y 281=0; a halt and a resume arrive as
 * SecurityStatus; an unsubscribe stops the X. A subscriber that stops reading gets no more X once its backlog passes the
 * limit, nobody else waits for it, and when it reads again it gets a fresh W equal to the engine's book; a resend
 * gap-fills market data. A gateway started on an events queue that already holds a book and a halt rebuilds both.
 */
class GatewayMarketDataTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
          - {senderCompId: BOB, account: 2}
          - {senderCompId: CAROL, account: 3}
        """;

    @TempDir
    Path tmp;

    /** A client's books from W and X, per MDReqID: bids (0) and offers (1), price in cents → {size, orders}. */
    private final Map<String, List<TreeMap<Long, long[]>>> books = new HashMap<>();
    private final List<Message> seen = new ArrayList<>();

    @Test
    void aQuickFixJClientsBooksEqualTheEnginesAndHaltUnsubscribeAndUnknownSymbolsWork() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS); RawFixClient alice = new RawFixClient("ALICE");
             RawFixClient bob = new RawFixClient("BOB")) {
            exchange.startEngine();
            // Books at start: resting orders and a halt journalled before the gateway starts (as bin/admin journals its
            // commands); the new gateway reads the whole events queue once at start to rebuild books and status.
            final Random random = new Random(7);
            final Command[] before = new Command[41];
            for (int i = 0; i < 40; i++) {
                final Side side = i % 2 == 0 ? Side.BUY : Side.SELL;
                before[i] = new Command().limit(1 + i % 2, 1, 1000 + i, side, side == Side.BUY ? 9900 - random.nextInt(30)
                    : 10010 + random.nextInt(30), 1 + random.nextInt(9));
            }
            before[40] = new Command().symbolCommand(CommandType.HALT, 1);
            operator(exchange, before);
            // The funding's deposits came first (Exchange): answered before these, one event each; and the engine's configuration
            // record, which it journalled at its start and answered too.
            final int answers = Exchange.FUNDING_COMMANDS + 41 + 1;
            Await.until("the engine answered the funding and the 41 commands", 30, () -> eventCount(exchange.data) == answers);
            exchange.startGateway();
            assertTrue(exchange.awaitGatewayLine("market data: books and trading status rebuilt from the ").contains(
                "rebuilt from the " + answers + " events before the resume point"));
            alice.connect(exchange.port, 0);
            alice.logOn(true);
            bob.connect(exchange.port, 0);
            bob.logOn(true);
            try (QfjClient carol = new QfjClient("CAROL", null, exchange.port, true)) {
                carol.awaitLogon();
                carol.send(request("deep", '1', 0, "012", "ACME"));
                carol.send(request("top10", '1', 10, "01", "ACME"));
                // GLOBEX has no order: a W with NoMDEntries=0, which QuickFIX/J takes.
                carol.send(request("empty", '0', 0, "01", "GLOBEX"));
                carol.send(request("bad", '1', 0, "01", "NOSUCH"));
                final Message reject = pump(carol, m -> type(m).equals("Y"));
                assertEquals("bad", reject.getString(262));
                assertEquals(0, reject.getInt(281));
                assertTrue(reject.getString(58).contains("NOSUCH"), reject.toString());
                final Books atStart = eventsBooks(exchange.data);
                assertBook(atStart, "deep", 0);
                assertBook(atStart, "top10", 10);
                assertTrue(books.get("deep").get(0).size() > 10, "a book deeper than 10 levels: " + books.get("deep").get(0).keySet());
                // Halted at subscription time: a SecurityStatus right after each W, not unsolicited.
                final List<String> order = seen.stream().map(GatewayMarketDataTest::type).toList();
                assertEquals(List.of("W", "f", "W", "f", "W", "Y"), order);
                assertEquals("empty", seen.get(4).getString(262));
                assertEquals(0, seen.get(4).getInt(268));
                for (final Message f : List.of(seen.get(1), seen.get(3))) {
                    assertEquals(2, f.getInt(326), f.toString());
                    assertFalse(f.getBoolean(325), f.toString());
                }
                operator(exchange, new Command().symbolCommand(CommandType.RESUME, 1));
                assertStatus(carol, 3, "deep", "top10");

                trade(alice, bob, random, 0, 300);
                sync(carol, "sync1");
                final Books engine = eventsBooks(exchange.data);
                assertBook(engine, "deep", 0);
                assertBook(engine, "top10", 10);
                assertBook(engine, "sync1", 0);
                assertTrue(seen.stream().anyMatch(m -> type(m).equals("X") && hasTrade(m)), "trades reached the client");

                operator(exchange, new Command().symbolCommand(CommandType.HALT, 1));
                assertStatus(carol, 2, "deep", "top10");
                operator(exchange, new Command().symbolCommand(CommandType.RESUME, 1));
                assertStatus(carol, 3, "deep", "top10");

                carol.send(request("top10", '2', 0, "01", "ACME"));
                // A marker on the same session: the gateway handles it after the unsubscribe.
                final NewOrderSingle marker = new NewOrderSingle(new ClOrdID("M1"), new quickfix.field.Side(quickfix.field.Side.BUY),
                    new TransactTime(), new OrdType(OrdType.LIMIT));
                marker.set(new Symbol("ACME"));
                marker.set(new OrderQty(1));
                marker.set(new Price(95));
                marker.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
                carol.send(marker);
                pump(carol, m -> type(m).equals("8") && "M1".equals(field(m, 11)));
                final int afterUnsubscribe = seen.size();
                trade(alice, bob, random, 300, 400);
                sync(carol, "sync2");
                for (int i = afterUnsubscribe; i < seen.size(); i++) {
                    assertFalse("top10".equals(field(seen.get(i), 262)) && !type(seen.get(i)).equals("Y"),
                        "a message for the unsubscribed top10 after its unsubscribe: " + seen.get(i));
                }
                assertTrue(books.get("deep").get(0).containsKey(9500L), "the marker's level reached the full-depth book");
                assertBook(eventsBooks(exchange.data), "deep", 0);
                // The issue's bar: bin/audit book (the engine replaying the journal) at the end says the same.
                assertEquals(auditBook(exchange), levels(books.get("deep")));

                assertFalse(carol.events.stream().anyMatch(e -> e.startsWith("sent")), "QuickFIX/J rejected something: " + carol.events);
            }
        }
    }

    @Test
    void aSubscriberThatStopsReadingIsDroppedAndGetsAFreshSnapshotWhenItReadsAgain() throws Exception {
        final int subscriptions = 20;
        final String limits = "logonTimeoutSeconds: 2\nwriteStallSeconds: 600\nmarketDataMaxBacklog: 200\n";
        try (Exchange exchange = new Exchange(tmp, SESSIONS, limits);
             RawFixClient alice = new RawFixClient("ALICE"); RawFixClient bob = new RawFixClient("BOB");
             RawFixClient carol = new RawFixClient("CAROL")) {
            exchange.startEngine();
            exchange.startGateway();
            alice.connect(exchange.port, 0);
            alice.logOn(true);
            bob.connect(exchange.port, 0);
            bob.logOn(true);
            // A deep book that stays: every snapshot of it is big, so the slow client's socket fills sooner.
            for (int i = 0; i < 200; i++) {
                alice.send("D", order("R" + i, '1', cents(9000 + i)));
            }
            alice.flush();
            awaitOrder(alice, "R199");
            carol.connect(exchange.port, 4096);
            carol.logOn(true);
            for (int i = 0; i < subscriptions; i++) {
                carol.send("V", "262=s" + i + "\u0001263=1\u0001264=0\u0001265=1\u0001267=2\u0001269=0\u0001269=1\u0001146=1"
                    + "\u000155=ACME\u0001");
            }
            carol.flush();
            for (int i = 0; i < subscriptions; i++) {
                carol.expect("W");
            }
            // Carol stops reading; the others trade (each pair: a level appears and trades away, an X per subscription each).
            pairs(alice, bob, 0, 1000);
            exchange.awaitGatewayLine("market data: session CAROL has more than 200 messages waiting");
            // Until the kernel's buffers are full too, a stale session looks caught up (everything built for it was
            // handed to the socket) and is sent a fresh snapshot, which soon makes it stale again: wait for that to end.
            int pairsSent = 1000;
            long built = -1;
            for (int chunk = 0; chunk < 40; chunk++) {
                pairs(alice, bob, pairsSent, pairsSent + 250);
                pairsSent += 250;
                final long now = lastOutbound(exchange, "CAROL");
                if (now == built) {
                    break;
                }
                built = now;
            }
            pairs(alice, bob, pairsSent, pairsSent + 500);
            pairsSent += 500;
            final long after = lastOutbound(exchange, "CAROL");
            assertEquals(built, after, () -> "no message built for the stale subscriber while it is behind: " + marketDataLines(exchange));
            final long wouldHave = subscriptions * 2L * pairsSent;
            // Each episode's re-snapshot of the 200-level book is a W and X adding the levels a W of maxMessageLength does
            // not hold (and an f) per subscription: what was built before it stopped is still well short of that.
            assertTrue(built < wouldHave / 2, "its messages stopped growing at " + built + " of the " + wouldHave + " X it would have got");
            // The monitor's view (gateways/1/sessions): its 20 subscriptions, stale, after at least one episode.
            final GatewaySessionsFile.MarketData stale = marketData(exchange, "CAROL");
            assertEquals(subscriptions, stale.subscriptions(), stale.toString());
            assertTrue(stale.stale() && stale.staleEpisodes() >= 1 && stale.snapshots() >= subscriptions, stale.toString());

            // It reads again: everything built for it, then a fresh W (and its status) per subscription.
            int fresh = 0;
            int last = 0;
            final Books engine = eventsBooks(exchange.data);
            while (fresh < subscriptions) {
                final RawFixClient.Msg m = carol.next();
                last = m.seq();
                // Snapshots of the earlier episodes (before the socket filled up) are in the stream too: only the ones built
                // after the stable point are the answer to its reading again.
                if ("W".equals(m.type()) && m.seq() > built) {
                    fresh++;
                    final RawFixClient.Msg status = assertSnapshot(engine, carol, m);
                    last = status.seq();
                    assertEquals("f", status.type(), status.toString());
                    // Not halted: ready to trade (3, resumed, is for an actual resume).
                    assertEquals("17", status.get(326));
                }
            }
            assertTrue(last > built, "the fresh snapshots come after what was built before");
            Await.until("CAROL no longer stale in the sessions file", 30, () -> !marketData(exchange, "CAROL").stale());
            assertEquals(subscriptions, marketData(exchange, "CAROL").subscriptions());
            // A resend gap-fills market data (a stored book is stale): everything it was sent is session or market data.
            carol.send("2", "7=1\u000116=0\u0001");
            carol.flush();
            final RawFixClient.Msg gapFill = carol.expect("4");
            assertEquals("Y", gapFill.get(123), gapFill.toString());
            assertEquals(1, gapFill.seq());
            // Up to what it was sent last (a Heartbeat may have followed the last snapshot).
            assertTrue(Integer.parseInt(gapFill.get(36)) > last, gapFill.toString());
            // The X it had were gap-filled: as far as the gateway can tell its books have holes now, so each subscription
            // gets a fresh W after the resend.
            for (int i = 0; i < subscriptions; i++) {
                final RawFixClient.Msg w = carol.expect("W");
                assertTrue(w.seq() >= Integer.parseInt(gapFill.get(36)), w.toString());
                assertEquals("17", assertSnapshot(engine, carol, w).get(326));
            }
        }
    }

    /** Pairs of orders: ALICE bids 1 at 100.00, BOB sells 1 at 100.00 into it; waits for both to be answered. */
    private static void pairs(final RawFixClient alice, final RawFixClient bob, final int from, final int to) throws IOException {
        for (int i = from; i < to; i++) {
            alice.send("D", order("P" + i, '1', "100.00"));
            bob.send("D", order("Q" + i, '2', "100.00"));
            if (i % 100 == 99) {
                alice.flush();
                bob.flush();
            }
        }
        alice.flush();
        bob.flush();
        awaitOrder(alice, "P" + (to - 1));
        awaitOrder(bob, "Q" + (to - 1));
    }

    private static String order(final String clOrdId, final char side, final String price) {
        return "11=" + clOrdId + "\u000155=ACME\u000154=" + side + "\u000138=1\u000140=2\u000144=" + price + "\u000159=1\u0001"
            + "60=20261123-10:00:00\u0001";
    }

    /** Random limit orders of both traders whose prices overlap (so some trade); waits until both are answered. */
    private static void trade(final RawFixClient alice, final RawFixClient bob, final Random random, final int from, final int to)
        throws IOException {
        for (int i = from; i < to; i++) {
            alice.send("D", order("A" + i, '1', cents(9970 + random.nextInt(40))).replace("38=1", "38=" + (1 + random.nextInt(9))));
            bob.send("D", order("B" + i, '2', cents(9990 + random.nextInt(40))).replace("38=1", "38=" + (1 + random.nextInt(9))));
        }
        alice.flush();
        bob.flush();
        awaitOrder(alice, "A" + (to - 1));
        awaitOrder(bob, "B" + (to - 1));
    }

    private static String cents(final long cents) {
        return cents / 100 + "." + String.format("%02d", cents % 100);
    }

    private static void awaitOrder(final RawFixClient client, final String clOrdId) throws IOException {
        while (true) {
            final RawFixClient.Msg m = client.expect("8");
            if (clOrdId.equals(m.get(11))) {
                assertTrue(!"8".equals(m.get(39)), "rejected: " + m);
                return;
            }
        }
    }

    /** A command journalled as bin/admin does (gateway 0: not from a FIX session). */
    private static void operator(final Exchange exchange, final Command... batch) {
        try (SingleChronicleQueue commands = DataDirectory.open(exchange.data).commands()) {
            final net.openhft.chronicle.queue.ExcerptAppender appender = commands.createAppender();
            for (final Command command : batch) {
                final Hops hops = new Hops();
                hops.gatewayReadNanos = System.nanoTime();
                final Instant now = Instant.now();
                hops.receiptEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
                CommandCodec.append(appender, command, hops);
            }
        }
    }

    /**
     * Every level of ACME as `bin/audit book ACME` prints it after the last command answered (every command is, here: one
     * event each): "bid 99.96 1250 26", sorted.
     */
    private static java.util.SortedSet<String> auditBook(final Exchange exchange) {
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        final int exit;
        try (java.io.PrintStream out = new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8)) {
            exit = io.chronex.replay.audit.Audit.exitCode(new String[] {"book", "ACME", "--data-dir", exchange.data.toString(),
                "--config", exchange.dir.resolve("engine.yaml").toString(), "--depth", "100000"}, out);
        }
        final String text = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, exit, text);
        final java.util.SortedSet<String> levels = new java.util.TreeSet<>();
        text.lines().filter(l -> l.startsWith("bid ") || l.startsWith("ask "))
            .forEach(l -> levels.add(String.join(" ", l.trim().split("\\s+"))));
        assertFalse(levels.isEmpty(), text);
        return levels;
    }

    private static java.util.SortedSet<String> levels(final List<TreeMap<Long, long[]>> book) {
        final java.util.SortedSet<String> levels = new java.util.TreeSet<>();
        for (int side = 0; side < 2; side++) {
            for (final Map.Entry<Long, long[]> e : book.get(side).entrySet()) {
                levels.add((side == 0 ? "bid " : "ask ") + cents(e.getKey()) + " " + e.getValue()[0] + " " + e.getValue()[1]);
            }
        }
        return levels;
    }

    private static int eventCount(final Path data) {
        final int[] count = new int[1];
        try (SingleChronicleQueue events = DataDirectory.open(data).events(); EventTail tail = new EventTail(events.createTailer())) {
            while (tail.poll((index, header, result) -> count[0]++, 1 << 16) > 0) {
                assertEquals(0, tail.unreadable());
            }
        }
        return count[0];
    }

    /** The books rebuilt from the events queue from its start: the engine's at the last event. */
    private static Books eventsBooks(final Path data) {
        final Books books = new Books();
        try (SingleChronicleQueue events = DataDirectory.open(data).events(); EventTail tail = new EventTail(events.createTailer())) {
            while (tail.poll((index, header, result) -> {
                for (int i = 0; i < result.levelChangeCount(); i++) {
                    final LevelChange c = result.levelChange(i);
                    books.apply(c);
                }
            }, 1 << 16) > 0) {
                assertEquals(0, tail.unreadable());
            }
        }
        return books;
    }

    private void assertBook(final Books engine, final String mdReqId, final int depth) {
        final List<TreeMap<Long, long[]>> book = books.get(mdReqId);
        assertNotNull(book, "no snapshot for " + mdReqId);
        for (int side = 0; side < 2; side++) {
            final Books.Levels levels = engine.bookOrNew(1).levels(side == 0 ? Side.BUY : Side.SELL);
            final int shown = depth == 0 ? levels.size() : Math.min(depth, levels.size());
            assertEquals(shown, book.get(side).size(), mdReqId + " side " + side + ": " + book.get(side).keySet());
            for (int r = 0; r < shown; r++) {
                final long[] level = book.get(side).get(levels.price(r));
                assertNotNull(level, mdReqId + " has no level at " + levels.price(r));
                assertEquals(levels.quantity(r), level[0], mdReqId + " size at " + levels.price(r));
                assertEquals(levels.orders(r), level[1], mdReqId + " orders at " + levels.price(r));
            }
        }
    }

    /**
     * A raw W (fields in order in its text), with the X adding the levels one W of maxMessageLength does not hold, against
     * the events' book of ACME; returns the message after them (its SecurityStatus).
     */
    private static RawFixClient.Msg assertSnapshot(final Books engine, final RawFixClient client, final RawFixClient.Msg w)
        throws IOException {
        final List<TreeMap<Long, long[]>> book = List.of(new TreeMap<>(), new TreeMap<>());
        RawFixClient.Msg m = w;
        while (m == w || "X".equals(m.type()) && w.get(262).equals(m.get(262))) {
            int side = 0;
            long price = 0;
            long size = 0;
            for (final String field : m.text.toString().split("\\|")) {
                final String[] kv = field.split("=", 2);
                switch (kv[0]) {
                    case "279" -> assertEquals("0", kv[1], "only new levels follow a W: " + m);
                    case "269" -> side = Integer.parseInt(kv[1]);
                    case "270" -> price = ticks(kv[1]);
                    case "271" -> size = Long.parseLong(kv[1]);
                    case "346" -> book.get(side).put(price, new long[] {size, Long.parseLong(kv[1])});
                    default -> {
                    }
                }
            }
            m = client.next();
        }
        for (int s = 0; s < 2; s++) {
            final Books.Levels levels = engine.bookOrNew(1).levels(s == 0 ? Side.BUY : Side.SELL);
            assertEquals(levels.size(), book.get(s).size(), w.toString());
            for (int r = 0; r < levels.size(); r++) {
                assertEquals(levels.quantity(r), book.get(s).get(levels.price(r))[0], w.toString());
            }
        }
        assertEquals("f", m.type(), m.toString());
        return m;
    }

    private static MarketDataRequest request(final String id, final char type, final int depth, final String entryTypes,
                                             final String symbol) {
        final MarketDataRequest v = new MarketDataRequest(new MDReqID(id), new SubscriptionRequestType(type), new MarketDepth(depth));
        if (type == '1') {
            v.set(new MDUpdateType(MDUpdateType.INCREMENTAL_REFRESH));
        }
        for (final char c : entryTypes.toCharArray()) {
            final MarketDataRequest.NoMDEntryTypes t = new MarketDataRequest.NoMDEntryTypes();
            t.set(new MDEntryType(c));
            v.addGroup(t);
        }
        final MarketDataRequest.NoRelatedSym s = new MarketDataRequest.NoRelatedSym();
        s.set(new Symbol(symbol));
        v.addGroup(s);
        return v;
    }

    /** A snapshot-only request, answered after every message built before it: the client has all X up to here. */
    private void sync(final QfjClient client, final String id) throws Exception {
        client.send(request(id, '0', 0, "01", "ACME"));
        pump(client, m -> type(m).equals("W") && id.equals(field(m, 262)));
    }

    private void assertStatus(final QfjClient client, final int status, final String... mdReqIds) throws Exception {
        final List<String> told = new ArrayList<>();
        while (told.size() < mdReqIds.length) {
            final Message f = pump(client, m -> type(m).equals("f"));
            assertEquals(status, f.getInt(326), f.toString());
            assertTrue(f.getBoolean(325), "unsolicited: " + f);
            assertEquals("ACME", f.getString(55));
            told.add(f.getString(324));
        }
        assertEquals(List.of(mdReqIds), told.stream().sorted().toList());
    }

    /** Takes the client's messages (building the books from W and X) until one matches; returns it. */
    private Message pump(final QfjClient client, final Predicate<Message> until) throws Exception {
        while (true) {
            final Message m = client.next();
            seen.add(m);
            apply(m);
            if (until.test(m)) {
                return m;
            }
        }
    }

    private void apply(final Message m) throws FieldNotFound {
        final String type = type(m);
        if (!type.equals("W") && !type.equals("X")) {
            return;
        }
        final String id = m.getString(262);
        final List<TreeMap<Long, long[]>> book = books.computeIfAbsent(id, k -> List.of(new TreeMap<>(), new TreeMap<>()));
        if (type.equals("W")) {
            book.get(0).clear();
            book.get(1).clear();
        }
        for (final Group g : m.getGroups(268)) {
            final int entryType = g.getChar(269) - '0';
            final int action = type.equals("W") ? 0 : g.getInt(279);
            if (entryType == 2) {
                continue;
            }
            final long price = ticks(g.getString(270));
            if (action == 2) {
                assertNotNull(book.get(entryType).remove(price), "delete of a level not held: " + m);
            } else {
                final long[] before = book.get(entryType).put(price, new long[] {Long.parseLong(g.getString(271)), g.getInt(346)});
                assertEquals(action == 1, before != null, "new/change out of step with the book held: " + m);
            }
        }
    }

    private static boolean hasTrade(final Message m) {
        try {
            for (final Group g : m.getGroups(268)) {
                if (g.getChar(269) == '2') {
                    return true;
                }
            }
            return false;
        } catch (final FieldNotFound e) {
            return false;
        }
    }

    private static String type(final Message m) {
        return field(m.getHeader(), 35);
    }

    private static String field(final quickfix.FieldMap m, final int tag) {
        try {
            return m.isSetField(tag) ? m.getString(tag) : null;
        } catch (final FieldNotFound e) {
            return null;
        }
    }

    private static long ticks(final String price) {
        return new BigDecimal(price).movePointRight(2).longValueExact();
    }

    private static String marketDataLines(final Exchange exchange) {
        try {
            return String.join("\n", exchange.gatewayLog().lines().filter(l -> l.contains("market data") || l.contains("CAROL")).toList());
        } catch (final IOException e) {
            return e.toString();
        }
    }

    private static GatewaySessionsFile.MarketData marketData(final Exchange exchange, final String sender) {
        final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(exchange.data.resolve("gateways/1/sessions"));
        assertEquals(null, s.problem());
        return s.sessions().stream().filter(x -> x.senderCompId().equals(sender)).findFirst().orElseThrow().marketData();
    }

    private static long lastOutbound(final Exchange exchange, final String sender) {
        final GatewaySessionsFile.Snapshot s = GatewaySessionsFile.read(exchange.data.resolve("gateways/1/sessions"));
        assertEquals(null, s.problem());
        return s.sessions().stream().filter(x -> x.senderCompId().equals(sender)).findFirst().orElseThrow().lastOutboundSeqNum();
    }
}
