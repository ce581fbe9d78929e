package io.chronex.gateway;

import io.chronex.gateway.core.ReceivedOrderIds;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.marketdata.MarketDataService;
import io.chronex.queues.ArchivedCycles;
import io.chronex.queues.ReaderCheckpoint;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * gateways/N/checkpoint ({@link ReaderCheckpoint}): what a start would otherwise rebuild by reading both queues from their
 * first day, as of an events index E and a journal index C. Without it a gateway's start grows with the history, and no
 * past day can be archived (docs/operating.md). It holds the AvgPx bookkeeping of live orders, the recent new orders for
 * PossDup, the live ClOrdIDs with their claims (what clordids.table is checked against), the market-data books and halts,
 * and how many commands this gateway journalled. A start reads the events after E and the journal after C only.
 *
 * <p>Taken on the gateway's thread when nothing is half done (after a pass's reports are stored): at start, on the first
 * event of each new day (so the day before can be archived soon after midnight UTC), and at a clean stop. Taking it costs
 * a copy of that state; the write and its fsync are done on a thread of their own, and a failed write leaves the previous
 * checkpoint, which only means a longer start.
 */
final class GatewayCheckpoint implements AutoCloseable {
    private static final int BODY_VERSION = 2;

    /**
     * A checkpoint read at start, its body positioned at its ClOrdIDs: how many commands this gateway had journalled (the
     * first at firstJournalled), and the last events excerpt whose reports the outbound store held when it was taken.
     */
    record Restored(ReaderCheckpoint.Header header, long journalled, long firstJournalled, long storedThrough, ByteBuffer body) {
    }

    private final SingleChronicleQueue commands;
    private final ReaderCheckpoint.Writer writer;
    private final Gateway.Log log;
    /** The day of the events index the last checkpoint was taken at (-1: none this run). */
    private int lastCycle = -1;

    GatewayCheckpoint(final int gatewayId, final Path gatewayDir, final SingleChronicleQueue commands, final SingleChronicleQueue events,
                      final Gateway.Log log) {
        this.commands = commands;
        this.log = log;
        this.writer = new ReaderCheckpoint.Writer(gatewayDir.resolve(ReaderCheckpoint.FILE), ReaderCheckpoint.GATEWAY, gatewayId,
            commands, events, "gateway-" + gatewayId + "-checkpoint", log::log);
    }

    /**
     * The checkpoint to start from, or null to read both queues from their start: none is there (a new gateway, or one of
     * an older build), or it cannot be used and nothing was archived (said in the log). Refused when it cannot be used and
     * past days were archived: the start would rebuild from a history missing its first days.
     */
    static Restored load(final int gatewayId, final Path gatewayDir, final Path dataRoot, final SingleChronicleQueue commands,
                         final SingleChronicleQueue events, final long[] accounts, final Gateway.Log log) {
        final Path file = gatewayDir.resolve(ReaderCheckpoint.FILE);
        final ArchivedCycles archived = ArchivedCycles.ofDataDirectory(dataRoot);
        String problem;
        try {
            final ReaderCheckpoint.Checkpoint read = ReaderCheckpoint.read(file, ReaderCheckpoint.GATEWAY, gatewayId);
            if (read != null) {
                final ReaderCheckpoint.Header h = read.header();
                problem = h.mismatch(commands, events);
                if (problem == null) {
                    final ByteBuffer body = read.body();
                    if (body.getInt() != BODY_VERSION) {
                        throw new IllegalArgumentException(file + ": state of another version");
                    }
                    final Restored r = new Restored(h, body.getLong(), body.getLong(), body.getLong(), body);
                    problem = accountsChanged(body, accounts, archived.isEmpty(), log);
                    if (problem == null) {
                        return r;
                    }
                }
            } else {
                if (!archived.isEmpty() && !servedBeforeArchive(dataRoot, gatewayId)) {
                    // A gateway that never served this directory starts at the events' end: it needs none of the past.
                    return null;
                }
                problem = "there is none";
            }
        } catch (final IOException | RuntimeException e) {
            problem = e.getMessage();
        }
        if (!archived.isEmpty()) {
            throw new IllegalStateException(file + " cannot be used (" + problem + "), and days of the queues through "
                + archived.cycles().get(archived.cycles().size() - 1).file() + " are archived: this gateway would rebuild its"
                + " orders' ClOrdIDs, average prices and books from a history missing its first days. Put back the checkpoint"
                + " from a copy of " + gatewayDir + " taken with the gateway stopped, or the archived days (docs/operating.md)");
        }
        if (!"there is none".equals(problem)) {
            log.log("warning: " + file + " is not used (" + problem + "): the queues are read from their start instead");
        }
        return null;
    }

    /**
     * Null when the checkpoint was taken for the accounts this gateway serves now (or with days archived, when it can still be
     * used: a warning for accounts added since, whose orders' AvgPx then counts only fills after it), else why it is not used.
     */
    private static String accountsChanged(final ByteBuffer body, final long[] accounts, final boolean nothingArchived,
                                          final Gateway.Log log) {
        final int count = body.getInt();
        if (count < 0 || count > body.remaining() / Long.BYTES) {
            throw new IllegalArgumentException("accounts: " + count + " cannot be");
        }
        final java.util.Set<Long> then = new java.util.TreeSet<>();
        for (int i = 0; i < count; i++) {
            then.add(body.getLong());
        }
        final java.util.Set<Long> added = new java.util.TreeSet<>();
        for (final long a : accounts) {
            if (!then.contains(a)) {
                added.add(a);
            }
        }
        if (added.isEmpty()) {
            return null;
        }
        if (nothingArchived) {
            return "it was taken before accounts " + added + " were this gateway's; their orders' average prices need the fills"
                + " before it";
        }
        log.log("warning: accounts " + added + " were not this gateway's when its checkpoint was taken, and the days before it"
            + " are archived: the AvgPx of their orders live since before it counts only the fills after it");
        return null;
    }

    /** Whether bin/admin archive found this gateway serving the directory (then a missing checkpoint is a lost one). */
    private static boolean servedBeforeArchive(final Path dataRoot, final int gatewayId) throws IOException {
        final Path file = dataRoot.resolve(ArchivedCycles.READERS);
        if (!java.nio.file.Files.exists(file)) {
            return true; // archived by a build that did not say: assume it did
        }
        final String body = io.chronex.runtime.WholeFile.checkedBody(java.nio.file.Files.readString(file));
        return body == null || body.lines().anyMatch(("gateway " + gatewayId)::equals);
    }

    /** Puts back what the checkpoint holds, in the order {@link #capture} wrote it (the ClOrdIDs go to the start's check). */
    static void restore(final Restored r, final ClOrdIdCheck check, final ExecutionReports reports, final ReceivedOrderIds received,
                        final MarketDataService marketData) {
        check.startAfter(r.header().commandsIndex(), r.journalled(), r.firstJournalled(), r.body());
        reports.readTracked(r.body());
        received.readFrom(r.body());
        if (r.body().get() != 0 && marketData != null) {
            marketData.readFrom(r.body());
        }
    }

    /** Whether a checkpoint is due after a pass through {@code eventsIndex}: that event is the first of a day not checkpointed. */
    boolean due(final long eventsIndex) {
        return eventsIndex >= 0 && ArchivedCycles.cycleOfIndex(eventsIndex) != lastCycle;
    }

    /**
     * Takes a checkpoint through {@code eventsIndex} (the gateway's state is as of it), written now (a stop) or in the
     * background. The gateway's thread copies its state and notes the journal's end; the rest is the writer's.
     */
    void take(final long eventsIndex, final Gateway state, final boolean now) {
        final long started = System.nanoTime();
        final long commandsIndex = commands.lastIndex();
        final byte[] body;
        try {
            body = capture(state);
        } catch (final IOException | RuntimeException e) {
            log.log("warning: checkpoint through events index " + Long.toHexString(eventsIndex) + " not taken (" + e
                + "); the previous one stays, a restart reads more");
            return;
        }
        lastCycle = ArchivedCycles.cycleOfIndex(eventsIndex);
        final String what = String.format(java.util.Locale.ROOT, "checkpoint through events index %s and journal index %s (gateway"
            + " thread paused %.2f ms for the copy)", Long.toHexString(eventsIndex), Long.toHexString(commandsIndex),
            (System.nanoTime() - started) / 1e6);
        if (now) {
            writer.writeNow(commandsIndex, eventsIndex, body, what);
        } else {
            writer.writeInBackground(commandsIndex, eventsIndex, body, what);
        }
    }

    /** The state as one array: bulk copies into a buffer sized for it (once a day, so the code runs cold: no stream per field). */
    private static byte[] capture(final Gateway g) throws IOException {
        final ByteArrayOutputStream books = new ByteArrayOutputStream(1 << 12);
        if (g.marketData != null) {
            g.marketData.writeTo(new DataOutputStream(books));
        }
        final long[] accounts = g.accounts();
        final ByteBuffer out = ByteBuffer.allocate(Integer.BYTES + 3 * Long.BYTES + Integer.BYTES + Long.BYTES * accounts.length
            + Integer.BYTES + g.clOrdIds.size() * ClOrdIdTable.LIVE_ENTRY_MAX_BYTES + g.reports.trackedBytes()
            + g.received.bytes() + 1 + books.size());
        out.putInt(BODY_VERSION);
        out.putLong(g.journalledBeforeStart + g.appends.journalled);
        out.putLong(g.firstJournalledBeforeStart >= 0 ? g.firstJournalledBeforeStart : g.appends.firstJournalled);
        out.putLong(g.storedThrough());
        out.putInt(accounts.length);
        for (final long a : accounts) {
            out.putLong(a);
        }
        g.clOrdIds.writeLive(out);
        g.reports.writeTracked(out);
        g.received.writeTo(out);
        out.put((byte) (g.marketData != null ? 1 : 0));
        out.put(books.toByteArray());
        return java.util.Arrays.copyOf(out.array(), out.position());
    }

    /** Waits for a checkpoint being written (a stop); false when it did not finish, and then no other may be written. */
    boolean finish() {
        return writer.finish();
    }

    @Override
    public void close() {
        writer.close();
    }
}
