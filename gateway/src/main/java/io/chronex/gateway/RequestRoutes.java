package io.chronex.gateway;

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
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

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
 * <p>Crash safety: memory-mapped 32-byte slots, open addressing, linear probing. A slot is written
 * field by field and marked live last with an ordered store; removal marks it dead with one store
 * (and turns dead slots back to empty from the end of a probe run, each with one store), so a kill
 * -9 leaves only whole entries. At start, entries whose index never got written are looked up in the
 * journal (after the restart checkpoint: the append was the last thing before the kill) or dropped
 * when their command is not there, and entries whose command was answered before the stop (their
 * release lost in the kill) are dropped ({@link #recover}). Opening rebuilds the table into a fresh
 * file (live entries only) and renames it into place; so does growth, the only time it allocates.
 */
final class RequestRoutes implements AutoCloseable {
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
    private static final int HEADER = 64;
    private static final int MAGIC_OFFSET = 0;
    private static final int CAPACITY_OFFSET = 8;
    private static final int SLOT = 32;
    private static final int STATE = 0;
    private static final int ROUTE = 4;
    private static final int ACCOUNT = 8;
    private static final int ID = 16;
    private static final int COMMAND = 24;
    private static final int EMPTY = 0;
    private static final int LIVE = 1;
    private static final int DEAD = 2;

    private final Path file;
    private final Routes routes;
    private MappedByteBuffer mapped;
    private final UnsafeBuffer slots = new UnsafeBuffer(0, 0);
    private int mask;
    private int size;
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
        this.file = file;
        this.routes = routes;
        try {
            Files.deleteIfExists(temporary());
            if (Files.exists(file)) {
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    final MappedByteBuffer old = raf.getChannel().map(FileChannel.MapMode.READ_ONLY, 0, raf.length());
                    try {
                        rebuild(new UnsafeBuffer(old), 0, true);
                    } finally {
                        IoUtil.unmap(old);
                    }
                }
            } else {
                rebuild(null, MIN_CAPACITY, false);
            }
        } catch (final IOException e) {
            throw new IllegalStateException("cannot open the routed requests table " + file + ": " + e.getMessage(), e);
        }
    }

    /** Requests awaiting their answer. */
    int size() {
        return size;
    }

    /** The highest route an entry names (0: none), for the start-up check against the routes file. */
    int maxRoute() {
        int max = Routes.NONE;
        for (int i = 0; i <= mask; i++) {
            final int slot = HEADER + i * SLOT;
            if (slots.getInt(slot + STATE) == LIVE) {
                max = Math.max(max, slots.getInt(slot + ROUTE));
            }
        }
        return max;
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
        final int held = find(slots, mask, c.account, id);
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
        try {
            rebuild(slots, capacity, false);
        } catch (final IOException e) {
            throw new IllegalStateException("cannot grow the routed requests table " + file + ": " + e.getMessage(), e);
        }
        return true;
    }

    /** Just before the command {@link #admit} passed is appended: claims its key for its route (index unknown yet). */
    void claim() {
        if (pendingRoute == Routes.NONE) {
            return;
        }
        int slot = find(slots, mask, pendingAccount, pendingId);
        if (slot >= 0) {
            // An entry left by a request answered without its release (a failed event) or never journalled: this one's now.
            slots.putLongRelease(slot + COMMAND, UNKNOWN);
            slots.putIntRelease(slot + ROUTE, pendingRoute);
        } else {
            slot = freeSlot(slots, mask, pendingAccount, pendingId);
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
        final int slot = find(slots, mask, account, requestId);
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
            final int slot = find(slots, mask, pending[i], pending[i + 1]);
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
        int i = (slot - HEADER) / SLOT;
        while (slots.getInt(HEADER + ((i + 1) & mask) * SLOT + STATE) == EMPTY
            && slots.getInt(HEADER + i * SLOT + STATE) == DEAD) {
            slots.putIntRelease(HEADER + i * SLOT + STATE, EMPTY);
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
            final int slot = HEADER + i * SLOT;
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
            final int slot = HEADER + i * SLOT;
            if (slots.getInt(slot + STATE) == LIVE && slots.getLong(slot + COMMAND) == UNKNOWN) {
                unknown++;
            }
        }
        if (unknown == 0) {
            return 0;
        }
        final int[] waiting = new int[unknown];
        for (int i = 0, n = 0; i <= mask; i++) {
            final int slot = HEADER + i * SLOT;
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

    /** The byte offset of the live slot holding (account, id), or -1. */
    private static int find(final UnsafeBuffer slots, final int mask, final long account, final long id) {
        int i = home(account, id, mask);
        while (true) {
            final int slot = HEADER + i * SLOT;
            final int state = slots.getInt(slot + STATE);
            if (state == EMPTY) {
                return -1;
            }
            if (state == LIVE && slots.getLong(slot + ID) == id && slots.getLong(slot + ACCOUNT) == account) {
                return slot;
            }
            i = (i + 1) & mask;
        }
    }

    /** The first empty or dead slot on (account, id)'s probe path. */
    private static int freeSlot(final UnsafeBuffer slots, final int mask, final long account, final long id) {
        int i = home(account, id, mask);
        while (slots.getInt(HEADER + i * SLOT + STATE) == LIVE) {
            i = (i + 1) & mask;
        }
        return HEADER + i * SLOT;
    }

    private static int home(final long account, final long id, final int mask) {
        long h = account * 0x9E3779B97F4A7C15L + id;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    /**
     * Writes every live entry of from (null: none) into a new file of at least minCapacity slots
     * (and at most half full), renames it over the table's file and maps it.
     */
    private void rebuild(final UnsafeBuffer from, final int minCapacity, final boolean check) throws IOException {
        int fromCapacity = 0;
        int live = 0;
        if (from != null) {
            if (from.capacity() < HEADER || from.getLong(MAGIC_OFFSET) != MAGIC) {
                throw new IllegalStateException(file + " is not a routed requests table");
            }
            fromCapacity = from.getInt(CAPACITY_OFFSET);
            if (Integer.bitCount(fromCapacity) != 1 || HEADER + (long) fromCapacity * SLOT > from.capacity()) {
                throw new IllegalStateException(file + " is not a routed requests table (capacity " + fromCapacity + ")");
            }
            for (int i = 0; i < fromCapacity; i++) {
                final int state = from.getInt(HEADER + i * SLOT + STATE);
                if (check && state != EMPTY && state != LIVE && state != DEAD) {
                    throw new IllegalStateException(file + " is damaged: slot " + i + " has state " + state + "; which requests await"
                        + " their answer, and with what route, cannot be trusted. " + Recovery.RESTORE_HINT);
                }
                live += state == LIVE ? 1 : 0;
            }
        }
        int capacity = Math.max(MIN_CAPACITY, minCapacity);
        while (capacity < MAX_CAPACITY && live + 1 > capacity >>> 1) {
            capacity <<= 1;
        }
        final Path temporary = temporary();
        final MappedByteBuffer fresh;
        try (RandomAccessFile raf = new RandomAccessFile(temporary.toFile(), "rw")) {
            raf.setLength(HEADER + (long) capacity * SLOT);
            fresh = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, HEADER + (long) capacity * SLOT);
        }
        final UnsafeBuffer to = new UnsafeBuffer(fresh);
        to.putInt(CAPACITY_OFFSET, capacity);
        final int toMask = capacity - 1;
        for (int i = 0; i < fromCapacity; i++) {
            final int slot = HEADER + i * SLOT;
            if (from.getInt(slot + STATE) == LIVE) {
                final int free = freeSlot(to, toMask, from.getLong(slot + ACCOUNT), from.getLong(slot + ID));
                to.putBytes(free + ROUTE, from, slot + ROUTE, SLOT - ROUTE);
                to.putInt(free + STATE, LIVE);
            }
        }
        // The magic last: a file without it is not taken for a table.
        to.putLongRelease(MAGIC_OFFSET, MAGIC);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (mapped != null) {
            IoUtil.unmap(mapped);
        }
        mapped = fresh;
        slots.wrap(fresh);
        mask = toMask;
        size = live;
        used = live;
        pendingSlot = -1;
    }

    private Path temporary() {
        return file.resolveSibling(file.getFileName() + ".tmp");
    }

    @Override
    public void close() {
        if (mapped != null) {
            IoUtil.unmap(mapped);
            mapped = null;
        }
    }
}
