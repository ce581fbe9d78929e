package io.chronex.gateway;

import io.chronex.gateway.core.MappedKeyTable;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.Hops;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * The route ({@link Routes}) of every journalled request that came with an OnBehalfOfCompID (115)
 * and is not answered yet, so the engine's answer to it goes back with that request's
 * DeliverToCompID, whenever it comes and across any restart. Requests without 115 are not kept:
 * they cost one look at the message and nothing else.
 *
 * <p>Keyed by (account, the id of the request's own ClOrdID: a new order's, a cancel's, a replace's,
 * a mass cancel's), each entry also holds the journal index of its command, which the answer names:
 * a request is claimed here just before its append (index unknown, -1) and given its index right
 * after; the answer takes the route only if the indices agree, so another request with the same
 * ClOrdID never takes it. A routed request whose key is held by one still in flight is refused at
 * the gateway (two answers could not tell themselves apart). The entry goes once the answer's
 * reports are stored ({@link #releaseStored}), as ClOrdIDs do.
 *
 * <p>Crash safety: a {@link MappedKeyTable} of 32-byte slots whose entries are its live slots.
 * Removal marks a slot dead with one store (and turns dead slots back to empty from the end of a
 * probe run, each with one store), so a kill -9 leaves only whole entries. At start, entries whose
 * index never got written are looked up in the journal (after the restart checkpoint: the append
 * was the last thing before the kill) or dropped when their command is not there, and entries whose
 * command was answered before the stop (their release lost in the kill) are dropped
 * ({@link #recover}). Growth also rebuilds at the same size when dead slots make probes long.
 */
final class RequestRoutes extends MappedKeyTable {
    /** The journal index of a request claimed but not (yet) appended. */
    static final long UNKNOWN = -1;
    static final int MIN_CAPACITY = 1 << 10;
    /** 2^20 slots of 32 bytes: half a million routed requests awaiting the engine at most. */
    static final int MAX_CAPACITY = 1 << 20;
    static final String FULL_TEXT = "third-party routing: " + Routes.MAX_ROUTES + " distinct OnBehalfOfCompID/SubID/LocationID"
        + " routes are known to this gateway already; send this request with one of them or without OnBehalfOfCompID";
    static final String IN_FLIGHT_TEXT = "another request of this session with the same ClOrdID and an OnBehalfOfCompID is still"
        + " awaiting the exchange's answer; send this one with another ClOrdID";
    static final String BUSY_TEXT = "third-party routing: too many requests with OnBehalfOfCompID are awaiting the exchange's answer";
    private static final long MAGIC = 0x3151_4552_5452_5843L; // "CXRTREQ1" read little-endian
    private static final int SLOT = 32;
    // Besides MappedKeyTable's state (0), account (8) and id (16):
    private static final int ROUTE = 4;
    private static final int COMMAND = 24;
    private static final int DEAD = 2;

    private final Routes routes;
    /** Slots not empty (live and dead): what makes probes long, kept at most half the capacity. */
    private int used;
    /** The request {@link #admit} let through, claimed next ({@link #claim}) and given its index ({@link #journalled}). */
    private int pendingRoute;
    private long pendingAccount;
    private long pendingId;
    private int pendingSlot = -1;
    /** The journal index of the last command the engine answered: an entry at or below it is not in flight. */
    private long answeredThrough = -1;
    /** Releases waiting for the reports of their answer to be stored: account, id, command index. */
    private long[] pending = new long[3 * 64];
    private int pendingCount;

    /** Opens (or creates) the table in file, rebuilding it from what a previous run left. */
    RequestRoutes(final Path file, final Routes routes) {
        super(file, "routed requests table", MAGIC, SLOT, MIN_CAPACITY, MAX_CAPACITY);
        this.routes = routes;
        used = size;
    }

    /** The highest route an entry names (0: none), for the start-up check against the routes file. */
    int maxRoute() {
        return maxInt(ROUTE);
    }

    /** The key a command is answered under: the request's own ClOrdID id. */
    static long requestId(final Command c) {
        return c.type == CommandType.NEW_ORDER ? c.clientOrderId : c.newClientOrderId;
    }

    /**
     * The last check before OrderEntry claims ClOrdIDs for a command it accepts: its route (new ones
     * written to the routes file), and whether it can be kept. A message without 115 always passes.
     *
     * @return null, or why the request is refused (a business reject, nothing journalled)
     */
    String admit(final FixDecoder m, final Command c) {
        pendingRoute = Routes.NONE;
        pendingSlot = -1;
        if (!m.has(FixTags.ON_BEHALF_OF_COMP_ID)) {
            return null;
        }
        if (ReplyRoute.problem(m) != 0) {
            // The gateway rejects such a message before order entry; this is for order entry used on its own.
            return "OnBehalfOfCompID, OnBehalfOfSubID and OnBehalfOfLocationID must be 1..64 printable ASCII characters";
        }
        final long id = requestId(c);
        final int held = find(c.account, id);
        if (held >= 0 && inFlight(held)) {
            return IN_FLIGHT_TEXT;
        }
        if (held < 0 && !room()) {
            return BUSY_TEXT;
        }
        final int route = routes.id(m);
        if (route == Routes.FULL) {
            return FULL_TEXT;
        }
        pendingRoute = route;
        pendingAccount = c.account;
        pendingId = id;
        return null;
    }

    /** An entry still waiting for its answer: its command is journalled and not answered yet. */
    private boolean inFlight(final int slot) {
        final long command = slots.getLong(slot + COMMAND);
        return command != UNKNOWN && command > answeredThrough;
    }

    /** Whether one more entry fits, growing the table if it must. */
    private boolean room() {
        if (2 * (used + 1) <= mask + 1) {
            return true;
        }
        final int capacity = 2 * (size + 1) > (mask + 1) / 2 ? (mask + 1) * 2 : mask + 1;
        if (capacity > MAX_CAPACITY) {
            return false;
        }
        rebuild(capacity);
        used = size;
        pendingSlot = -1;
        return true;
    }

    /** Just before the command {@link #admit} passed is appended: claims its key for its route (index unknown yet). */
    void claim() {
        if (pendingRoute == Routes.NONE) {
            return;
        }
        int slot = find(pendingAccount, pendingId);
        if (slot >= 0) {
            // An entry left by a request answered without its release (a failed event) or never journalled: this one's now.
            slots.putLongRelease(slot + COMMAND, UNKNOWN);
            slots.putIntRelease(slot + ROUTE, pendingRoute);
        } else {
            slot = freeSlot(pendingAccount, pendingId);
            if (slots.getInt(slot + STATE) == EMPTY) {
                used++;
            }
            slots.putInt(slot + ROUTE, pendingRoute);
            slots.putLong(slot + ACCOUNT, pendingAccount);
            slots.putLong(slot + ID, pendingId);
            slots.putLong(slot + COMMAND, UNKNOWN);
            slots.putIntRelease(slot + STATE, LIVE);
            size++;
        }
        pendingSlot = slot;
    }

    /** Right after the append: the claimed entry learns its command's journal index. */
    void journalled(final long commandIndex) {
        if (pendingSlot >= 0) {
            slots.putLongRelease(pendingSlot + COMMAND, commandIndex);
            pendingSlot = -1;
        }
        pendingRoute = Routes.NONE;
    }

    /** Every event read: the engine has answered the commands up to the one it names. */
    void answered(final long commandIndex) {
        if (commandIndex > answeredThrough) {
            answeredThrough = commandIndex;
        }
    }

    /**
     * The route of the request a result answers (0 when it came without 115), noting its release
     * for {@link #releaseStored}.
     */
    int answer(final long account, final long requestId, final long commandIndex) {
        if (size == 0) {
            return Routes.NONE;
        }
        final int slot = find(account, requestId);
        if (slot < 0 || slots.getLong(slot + COMMAND) != commandIndex) {
            return Routes.NONE;
        }
        if (pendingCount + 3 > pending.length) {
            pending = java.util.Arrays.copyOf(pending, pending.length * 2);
        }
        pending[pendingCount++] = account;
        pending[pendingCount++] = requestId;
        pending[pendingCount++] = commandIndex;
        return slots.getInt(slot + ROUTE);
    }

    /** Drops the entries of the answers noted since the last call: their reports are stored. */
    void releaseStored() {
        for (int i = 0; i < pendingCount; i += 3) {
            final int slot = find(pending[i], pending[i + 1]);
            if (slot >= 0 && slots.getLong(slot + COMMAND) == pending[i + 2]) {
                remove(slot);
            }
        }
        pendingCount = 0;
    }

    /** Marks the slot dead, then empties dead slots backwards from it while the slot after them is empty (no probe passes them). */
    private void remove(final int slot) {
        slots.putIntRelease(slot + STATE, DEAD);
        size--;
        int i = index(slot);
        while (slots.getInt(slot((i + 1) & mask) + STATE) == EMPTY && slots.getInt(slot(i) + STATE) == DEAD) {
            slots.putIntRelease(slot(i) + STATE, EMPTY);
            used--;
            i = (i - 1) & mask;
        }
    }

    /**
     * At start, before any client is served: entries whose journal index a kill kept from being
     * written get it from the journal (this gateway's last command with their key after the restart
     * checkpoint) or go (the command never got there); entries whose command the engine had
     * answered and this gateway had stored the reports of go (the kill came before their release).
     *
     * @param scanFrom         sessions.state's checkpoint (-1: the journal's start)
     * @param lastEventsStored the last event whose reports the outbound store holds whole (negative: none)
     * @return a line for the log, or null when there was nothing to do
     */
    String recover(final SingleChronicleQueue commands, final SingleChronicleQueue events, final int gatewayId, final long scanFrom,
                   final long lastEventsStored) {
        final int before = size;
        final int unknown = resolveUnknown(commands, gatewayId, scanFrom);
        answeredThrough = commandAnsweredBy(events, lastEventsStored);
        for (int i = 0; i <= mask; i++) {
            final int slot = slot(i);
            if (slots.getInt(slot + STATE) == LIVE && !inFlight(slot)) {
                remove(slot);
            }
        }
        if (before == 0) {
            return null;
        }
        return "routed requests: " + before + " awaiting their answer at the stop (" + unknown + " without their journal index),"
            + " " + size + " still are";
    }

    /** Gives the entries without a journal index the index of their command; returns how many had none. */
    private int resolveUnknown(final SingleChronicleQueue commands, final int gatewayId, final long scanFrom) {
        int unknown = 0;
        for (int i = 0; i <= mask; i++) {
            final int slot = slot(i);
            if (slots.getInt(slot + STATE) == LIVE && slots.getLong(slot + COMMAND) == UNKNOWN) {
                unknown++;
            }
        }
        if (unknown == 0) {
            return 0;
        }
        final int[] waiting = new int[unknown];
        for (int i = 0, n = 0; i <= mask; i++) {
            final int slot = slot(i);
            if (slots.getInt(slot + STATE) == LIVE && slots.getLong(slot + COMMAND) == UNKNOWN) {
                waiting[n++] = slot;
            }
        }
        final long[] found = new long[unknown];
        java.util.Arrays.fill(found, UNKNOWN);
        final ExcerptTailer tailer = commands.createTailer();
        if (scanFrom < 0 || !tailer.moveToIndex(scanFrom)) {
            tailer.toStart();
        }
        final Command command = new Command();
        final Hops hops = new Hops();
        while (true) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                if (CommandCodec.read(dc.wire().bytes(), command, hops) != DecodeStatus.OK || hops.gatewayId != gatewayId) {
                    continue;
                }
                final long id = requestId(command);
                for (int n = 0; n < unknown; n++) {
                    if (slots.getLong(waiting[n] + ACCOUNT) == command.account && slots.getLong(waiting[n] + ID) == id) {
                        found[n] = dc.index();
                    }
                }
            }
        }
        for (int n = 0; n < unknown; n++) {
            if (found[n] == UNKNOWN) {
                remove(waiting[n]);
            } else {
                slots.putLongRelease(waiting[n] + COMMAND, found[n]);
            }
        }
        return unknown;
    }

    /** The journal index of the command the event at eventsIndex answers; -1 when there is none. */
    private static long commandAnsweredBy(final SingleChronicleQueue events, final long eventsIndex) {
        if (eventsIndex < 0) {
            return -1;
        }
        final ExcerptTailer tailer = events.createTailer();
        if (!tailer.moveToIndex(eventsIndex)) {
            return -1;
        }
        final EventHeader header = new EventHeader();
        try (DocumentContext dc = tailer.readingDocument()) {
            return dc.isPresent() && EventCodec.readHeader(dc.wire().bytes(), header) == DecodeStatus.OK ? header.commandIndex : -1;
        }
    }

    @Override
    protected boolean entry(final UnsafeBuffer from, final int slot) {
        return from.getInt(slot + STATE) == LIVE;
    }

    @Override
    protected void check(final UnsafeBuffer from, final int index) {
        final int state = from.getInt(slot(index) + STATE);
        if (state != EMPTY && state != LIVE && state != DEAD) {
            throw new IllegalStateException(file + " is damaged: slot " + index + " has state " + state + "; which requests await"
                + " their answer, and with what route, cannot be trusted. " + Recovery.RESTORE_HINT);
        }
    }
}
