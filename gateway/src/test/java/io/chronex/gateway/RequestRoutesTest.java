package io.chronex.gateway;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The routes of requests awaiting their answer: claims, answers by journal index, refusals, and what a start makes of a kill. */
class RequestRoutesTest {
    private static final long ACCOUNT = 1;

    @TempDir
    Path tmp;

    private final FixDecoder routed = decoded("115=DESK1\u0001116=TRADER7\u0001");
    private final FixDecoder other = decoded("115=DESK2\u0001");
    private final FixDecoder plain = decoded("");

    private static FixDecoder decoded(final String route) {
        final byte[] bytes = FixText.whole("35=D\u000149=ALICE\u000156=CHRONEX\u000134=2\u000152=20261122-10:00:00.000\u0001" + route
            + "11=A\u0001");
        final FixDecoder m = new FixDecoder();
        assertEquals(FixDecoder.OK, m.decode(new UnsafeBuffer(bytes), 0, bytes.length));
        return m;
    }

    private static Command order(final long clientOrderId) {
        final Command c = new Command();
        c.clear();
        c.type = CommandType.NEW_ORDER;
        c.account = ACCOUNT;
        c.clientOrderId = clientOrderId;
        return c;
    }

    /** What CommandJournal does with a request OrderEntry accepted: admit, claim, append (here: the index given), journalled. */
    private static void journal(final RequestRoutes requests, final FixDecoder m, final Command c, final long index) {
        assertNull(requests.admit(m, c));
        requests.claim();
        requests.journalled(index);
    }

    @Test
    void aRoutedRequestIsAnsweredWithItsRouteOnlyUnderItsOwnJournalIndexAndGoesOnceStored() {
        try (Routes routes = new Routes(tmp.resolve("routes"));
             RequestRoutes requests = new RequestRoutes(tmp.resolve("requests"), routes)) {
            journal(requests, routed, order(11), 40);
            journal(requests, other, order(12), 41);
            journal(requests, plain, order(13), 42);
            assertEquals(2, requests.size(), "a request without 115 is not kept");
            assertEquals(2, requests.maxRoute());
            assertEquals(Routes.NONE, requests.answer(ACCOUNT, 11, 39), "another command with the same ClOrdID");
            assertEquals(Routes.NONE, requests.answer(ACCOUNT + 1, 11, 40), "another account");
            assertEquals(Routes.NONE, requests.answer(ACCOUNT, 13, 42));
            assertEquals(1, requests.answer(ACCOUNT, 11, 40));
            assertEquals("DESK1/TRADER7/", routes.describe(1));
            assertEquals(2, requests.size(), "kept until the answer's reports are stored");
            requests.releaseStored();
            assertEquals(1, requests.size());
            assertEquals(2, requests.answer(ACCOUNT, 12, 41));
            requests.releaseStored();
            assertEquals(0, requests.size());
        }
    }

    @Test
    void aRoutedRequestWithTheKeyOfOneStillInFlightIsRefusedButAnAnsweredOnesEntryIsTakenOver() {
        try (Routes routes = new Routes(tmp.resolve("routes"));
             RequestRoutes requests = new RequestRoutes(tmp.resolve("requests"), routes)) {
            journal(requests, routed, order(11), 40);
            assertEquals(RequestRoutes.IN_FLIGHT_TEXT, requests.admit(other, order(11)));
            assertNull(requests.admit(plain, order(11)), "one without 115 goes on; its answer will not match the entry");
            // The engine answered 40 but the answer was never released (an event the gateway could not answer).
            requests.answered(40);
            journal(requests, other, order(11), 44);
            assertEquals(1, requests.size());
            assertEquals(Routes.NONE, requests.answer(ACCOUNT, 11, 40));
            assertEquals(2, requests.answer(ACCOUNT, 11, 44));
        }
    }

    @Test
    void aClaimWhoseAppendFailedIsTakenOverByTheNextRoutedRequestWithItsKey() {
        try (Routes routes = new Routes(tmp.resolve("routes"));
             RequestRoutes requests = new RequestRoutes(tmp.resolve("requests"), routes)) {
            assertNull(requests.admit(routed, order(11)));
            requests.claim();
            // No journalled(): the append threw.
            journal(requests, other, order(11), 50);
            assertEquals(2, requests.answer(ACCOUNT, 11, 50));
        }
    }

    /**
     * A kill leaves: an entry whose answer was stored but not released (A), one claimed whose append went through but whose
     * index was never written (B), one claimed whose append never happened (C, whose key another gateway journalled), and one
     * journalled and not answered (D). The start drops A and C, finds B's index in the journal, keeps D.
     */
    @Test
    void theStartFindsTheIndexOfAnAppendAKillInterruptedAndDropsWhatWasAnsweredOrNeverJournalled() throws Exception {
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events()) {
            final ExcerptAppender journal = commands.createAppender();
            final long a = append(journal, 1, order(21));
            final long d = append(journal, 1, order(24));
            append(journal, 2, order(23));
            final long b = append(journal, 1, order(22));
            final long answeredA = answer(events, a);
            try (Routes routes = new Routes(tmp.resolve("routes"));
                 RequestRoutes requests = new RequestRoutes(tmp.resolve("requests"), routes)) {
                journal(requests, routed, order(21), a);
                journal(requests, routed, order(24), d);
                for (final long id : new long[] {22, 23}) {
                    assertNull(requests.admit(other, order(id)));
                    requests.claim();
                }
            }
            try (Routes routes = new Routes(tmp.resolve("routes"));
                 RequestRoutes requests = new RequestRoutes(tmp.resolve("requests"), routes)) {
                assertEquals(4, requests.size(), "every entry is whole after reopening");
                assertEquals("routed requests: 4 awaiting their answer at the stop (2 without their journal index), 2 still are",
                    requests.recover(commands, events, 1, d, answeredA));
                assertEquals(2, requests.size());
                assertEquals(1, requests.answer(ACCOUNT, 24, d));
                assertEquals(2, requests.answer(ACCOUNT, 22, b), "B's index, from the journal");
                assertEquals(Routes.NONE, requests.answer(ACCOUNT, 21, a));
                requests.releaseStored();
                assertEquals(0, requests.size());
                assertNull(requests.admit(routed, order(21)), "A's key is free again");
            }
        }
    }

    private static long append(final ExcerptAppender journal, final int gatewayId, final Command c) {
        final Hops hops = new Hops();
        hops.gatewayId = gatewayId;
        hops.sessionId = c.account;
        CommandCodec.append(journal, c, hops);
        return journal.lastIndexAppended();
    }

    /** An event answering the command at commandIndex; returns its index. */
    private static long answer(final SingleChronicleQueue events, final long commandIndex) {
        final ExcerptAppender appender = events.createAppender();
        final EventHeader header = new EventHeader();
        header.commandIndex = commandIndex;
        final Result result = new Result();
        result.reset(CommandType.NEW_ORDER);
        result.account = ACCOUNT;
        try (DocumentContext dc = appender.writingDocument()) {
            EventCodec.write(dc.wire().bytes(), header, result);
        }
        return appender.lastIndexAppended();
    }

    /** Random requests, answers and releases against a map, through growth, slots emptied and reused, and reopening. */
    @Test
    void agreesWithAModelThroughGrowthAndReopening() {
        final SplittableRandom random = new SplittableRandom(5);
        final Map<Long, Long> inFlight = new HashMap<>();
        final Path file = tmp.resolve("requests");
        final Routes routes = new Routes(tmp.resolve("routes"));
        RequestRoutes requests = new RequestRoutes(file, routes);
        try {
            long index = 0;
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 20_000; i++) {
                    final long id = 1 + random.nextInt(4_000);
                    if (random.nextInt(5) < 3 && !inFlight.containsKey(id)) {
                        journal(requests, routed, order(id), ++index);
                        inFlight.put(id, index);
                    } else if (inFlight.containsKey(id)) {
                        final long at = inFlight.remove(id);
                        assertEquals(1, requests.answer(ACCOUNT, id, at));
                        requests.releaseStored();
                    }
                }
                assertEquals(inFlight.size(), requests.size());
                requests.close();
                requests = new RequestRoutes(file, routes);
                assertEquals(inFlight.size(), requests.size(), "every entry survives reopening");
                for (final Map.Entry<Long, Long> e : inFlight.entrySet()) {
                    assertEquals(1, requests.answer(ACCOUNT, e.getKey(), e.getValue()));
                }
                // Nothing released: the answers above were only looked at.
                requests.close();
                requests = new RequestRoutes(file, routes);
            }
        } finally {
            requests.close();
            routes.close();
        }
    }

    @Test
    void aSlotInAStateNoWriterSetsIsRefused() throws Exception {
        final Path file = tmp.resolve("requests");
        try (Routes routes = new Routes(tmp.resolve("routes"));
             RequestRoutes requests = new RequestRoutes(file, routes)) {
            journal(requests, routed, order(11), 40);
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            for (long slot = 64; slot < raf.length(); slot += 32) {
                raf.seek(slot);
                if (Integer.reverseBytes(raf.readInt()) == 1) {
                    raf.seek(slot);
                    raf.writeInt(Integer.reverseBytes(7));
                }
            }
        }
        try (Routes routes = new Routes(tmp.resolve("routes"))) {
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> new RequestRoutes(file, routes).close());
            assertTrue(e.getMessage().contains("is damaged: slot"), e.getMessage());
        }
    }
}
