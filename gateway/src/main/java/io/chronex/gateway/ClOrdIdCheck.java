package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdReleases;
import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.queues.CommandCodec;
import io.chronex.gateway.session.OutboundStore;
import io.chronex.queues.CommandText;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.EventCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * clordids.table against the journal: the texts this gateway's live orders must have, worked out
 * again from its journalled commands (claims) and the events it has answered (releases, by the
 * live path's own rule, {@link ClOrdIdReleases}), into a scratch table. At start the real table
 * must hold every one of them; {@code bin/gateway --rebuild-clordids} installs the scratch table
 * in its place. It also walks the commands journal once (from the gateway's checkpoint on, which
 * gives the live ClOrdIDs up to there), so recovery learns from it how far the journal can be read and
 * whether this gateway ever journalled anything.
 *
 * <p>Claims are taken in journal order up to the command each answered event names, then that
 * event's releases: the order the live gateway did them in, as far as the outcome can tell (a
 * claim always precedes its command's answer; the table leaves behind only entries the live path
 * also kept, such as a claim whose append a crash cut off, which are harmless extras).
 */
final class ClOrdIdCheck implements AutoCloseable {

    private final int gatewayId;
    private final Long2ObjectHashMap<?> ours;
    private final ExcerptTailer commands;
    private final ExcerptTailer requests;
    private final Path scratch;
    private ClOrdIdTable expected;
    private final ClOrdIdReleases.Sink release;
    private final Command command = new Command();
    private final Hops hops = new Hops();
    private final CommandText text = new CommandText();
    private final UnsafeBuffer textBuffer = new UnsafeBuffer(new byte[CommandText.MAX_LENGTH]);
    private final Command request = new Command();
    private final Hops requestHops = new Hops();
    private boolean ended;

    /** Index of the last command read; -1 before the first. */
    long lastRead = -1;
    long commandsRead;
    /** Commands this gateway journalled, and the index of the first (-1: none). */
    long journalledHere;
    long firstHere = -1;

    /** @param ours this gateway's sessions by account (only the keys are used); scratch: a file the check may create and delete */
    ClOrdIdCheck(final int gatewayId, final Long2ObjectHashMap<?> ours, final SingleChronicleQueue commandsQueue, final Path scratch) {
        this.gatewayId = gatewayId;
        this.ours = ours;
        this.commands = commandsQueue.createTailer();
        this.commands.toStart();
        this.requests = commandsQueue.createTailer();
        this.scratch = scratch;
        try {
            Files.deleteIfExists(scratch);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot delete " + scratch + ": " + e.getMessage(), e);
        }
        this.expected = new ClOrdIdTable(scratch);
        final ClOrdIdTable table = expected;
        this.release = table::release;
    }

    /**
     * Starts from a checkpoint instead of the journal's start: its live ClOrdIDs (with their claims) are what the journal up to
     * commandsIndex gave, and this gateway had journalled {@code journalled} commands there, the first at {@code first}.
     */
    void startAfter(final long commandsIndex, final long journalled, final long first, final java.nio.ByteBuffer body) {
        ClOrdIdTable.readLive(body, (account, id, claims, text, length) -> {
            for (int i = 0; i < claims; i++) {
                expected.claim(account, id, text, 0, length);
            }
        });
        journalledHere = journalled;
        firstHere = first;
        if (commandsIndex >= 0) {
            if (!commands.moveToIndex(commandsIndex)) {
                throw new IllegalStateException("commands journal: no excerpt " + Long.toHexString(commandsIndex)
                    + ", where the checkpoint says it was read through");
            }
            try (DocumentContext dc = commands.readingDocument()) {
                lastRead = dc.isPresent() ? commandsIndex : lastRead; // past the one the checkpoint already holds
            }
        }
    }

    /** Reads the journal up to and including commandIndex (or its end), taking this gateway's claims. */
    void claimUpTo(final long commandIndex) {
        while (!ended && lastRead < commandIndex) {
            readCommand();
        }
    }

    /** Reads the rest of the journal. */
    void claimToEnd() {
        while (!ended) {
            readCommand();
        }
    }

    private void readCommand() {
        try (DocumentContext dc = commands.readingDocument()) {
            if (!dc.isPresent()) {
                ended = true;
                return;
            }
            lastRead = dc.index();
            commandsRead++;
            text.clear();
            if (CommandCodec.read(dc.wire().bytes(), command, hops, text) != DecodeStatus.OK || hops.gatewayId != gatewayId) {
                return;
            }
            journalledHere++;
            if (firstHere < 0) {
                firstHere = lastRead;
            }
            if (!ours.containsKey(command.account)) {
                return;
            }
            // What OrderEntry claimed just before it journalled this command.
            if (command.type == CommandType.NEW_ORDER && text.clientOrderIdLength > 0) {
                claim(command.clientOrderId, text.clientOrderId, text.clientOrderIdLength);
            } else if (command.type == CommandType.REPLACE && ClOrdIdReleases.renames(command) && text.newClientOrderIdLength > 0) {
                claim(command.newClientOrderId, text.newClientOrderId, text.newClientOrderIdLength);
            }
        }
    }

    private void claim(final long id, final byte[] bytes, final int length) {
        textBuffer.putBytes(0, bytes, 0, length);
        expected.claim(command.account, id, textBuffer, 0, length);
    }

    /** An event this gateway answered and stored the reports of: its claims before it, then the claims it ended. */
    void answered(final EventHeader header, final Result r) {
        claimUpTo(header.commandIndex);
        long direct = ClOrdIdReleases.NO_DIRECT;
        if (header.hops.gatewayId == gatewayId && header.hops.sessionId != 0 && ours.containsKey(header.hops.sessionId)) {
            direct = header.hops.sessionId;
            // As EventsToReports: a replace it could not read back had no answer, and so released nothing.
            if (r.commandType == CommandType.REPLACE && !readRequest(header.commandIndex)) {
                direct = ClOrdIdReleases.NO_DIRECT;
            }
        }
        ClOrdIdReleases.of(r, direct, request, ours, release);
    }

    private boolean readRequest(final long index) {
        if (!requests.moveToIndex(index)) {
            return false;
        }
        try (DocumentContext dc = requests.readingDocument()) {
            return dc.isPresent() && CommandCodec.read(dc.wire().bytes(), request, requestHops) == DecodeStatus.OK;
        }
    }

    /** Live ClOrdIDs worked out from the journal. */
    int expectedLive() {
        return expected.size();
    }

    /**
     * Refuses a table that lacks a text a live order needs or holds another one for it: reports would
     * carry the engine's id in decimal (or a wrong text) instead of the client's ClOrdID.
     */
    void compare(final ClOrdIdTable actual, final Path file) {
        final long[] wrong = {0};
        final String[] first = {null};
        expected.forEach((account, id, buffer, offset, length) -> {
            if (!actual.holds(account, id, buffer, offset, length)) {
                wrong[0]++;
                if (first[0] == null) {
                    first[0] = "account " + account + ", ClOrdID '" + buffer.getStringWithoutLengthAscii(offset, length) + "'";
                }
            }
        });
        if (wrong[0] > 0) {
            throw new IllegalStateException(file + " disagrees with the journal: " + wrong[0] + " of the " + expected.size()
                + " live orders' ClOrdIDs the journal gives are missing from it or different (first: " + first[0]
                + "); their reports would carry a number instead of the client's ClOrdID. " + ClOrdIdTable.REBUILD_HINT);
        }
    }

    /** Puts the table worked out here in place of file (the caller read the whole journal first). */
    void install(final Path file) {
        expected.close();
        expected = null;
        try {
            Files.move(scratch, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot move " + scratch + " to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * bin/gateway --rebuild-clordids: the table worked out from the journal and the events this
     * gateway's outbound store says it answered, put in place of gateways/N/clordids.table (the
     * gateway stopped). Returns the line saying what was done.
     */
    static String rebuild(final GatewayConfig config, final int gatewayId, final DataDirectory data) {
        final Long2ObjectHashMap<Boolean> ours = new Long2ObjectHashMap<>();
        for (final GatewayConfig.Session s : config.sessionsOf(gatewayId)) {
            ours.put(s.account(), Boolean.TRUE);
        }
        final Path dir = data.gatewayDir(gatewayId);
        try (SingleChronicleQueue commands = data.commands(); SingleChronicleQueue events = data.events();
             OutboundStore store = new OutboundStore(data.gatewayOutbound(gatewayId));
             ClOrdIdCheck check = new ClOrdIdCheck(gatewayId, ours, commands, dir.resolve("clordids.table.expected"))) {
            // Damage to the store is refused here as at start: which events were answered is the store's to say.
            final boolean stored = store.recover(new OutboundStore.Visitor() {
                @Override
                public void message(final long account, final int seq, final int msgType, final long storeIndex, final int entryOffset) {
                }

                @Override
                public void reset(final long account) {
                }
            });
            final long partial = store.partialEventsIndex();
            long resumeAfter = stored ? store.lastEventsIndex() : Long.MIN_VALUE;
            final EventHeader header = new EventHeader();
            final Result result = new Result();
            final ExcerptTailer tailer = events.createTailer();
            // As a start does: from the checkpoint when there is one (the days before it may be archived).
            final GatewayCheckpoint.Restored checkpoint = GatewayCheckpoint.load(gatewayId, dir, data.root(), commands, events,
                config.sessionsOf(gatewayId).stream().mapToLong(GatewayConfig.Session::account).toArray(), System.err::println);
            if (checkpoint != null) {
                check.startAfter(checkpoint.header().commandsIndex(), checkpoint.journalled(), checkpoint.firstJournalled(),
                    checkpoint.body());
                if (!tailer.moveToIndex(checkpoint.header().eventsIndex())) {
                    throw new IllegalStateException("events queue: no excerpt " + Long.toHexString(checkpoint.header().eventsIndex())
                        + ", where the checkpoint was taken");
                }
                tailer.readingDocument().close();
                resumeAfter = Math.max(resumeAfter, checkpoint.header().eventsIndex());
            }
            long answered = 0;
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent() || (partial >= 0 ? dc.index() >= partial : dc.index() > resumeAfter)) {
                        break;
                    }
                    if (EventCodec.read(dc.wire().bytes(), header, result) == DecodeStatus.OK) {
                        check.answered(header, result);
                        answered++;
                    }
                }
            }
            check.claimToEnd();
            final int live = check.expectedLive();
            check.install(dir.resolve("clordids.table"));
            return String.format(java.util.Locale.ROOT, "rebuilt %s from the journal: %d live ClOrdIDs (%d commands read, %d from gateway"
                + " %d; %d answered events read)", dir.resolve("clordids.table"), live, check.commandsRead, check.journalledHere, gatewayId,
                answered);
        }
    }

    @Override
    public void close() {
        if (expected != null) {
            expected.close();
            expected = null;
            try {
                Files.deleteIfExists(scratch);
            } catch (final IOException ignored) {
                // a scratch file left behind is deleted at the next start
            }
        }
    }
}
