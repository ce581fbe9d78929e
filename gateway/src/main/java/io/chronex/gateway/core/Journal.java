package io.chronex.gateway.core;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.CommandText;
import io.chronex.queues.Hops;
import io.chronex.runtime.StorageGuard;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * A gateway's appends to the commands queue, whatever protocol the requests came by: each command with its hop times,
 * the gateway's id and the account of the session that sent it (which is whom the answer goes to), the ids' texts;
 * the disk's reserve judged before a request goes in. Counts what it journalled for the status line and the checkpoint.
 */
public final class Journal {
    /** Chronicle's excerpt header and the text lengths, counted on the safe side. */
    private static final int EXCERPT_OVERHEAD = 16;

    private final int gatewayId;
    private final ExcerptAppender commands;
    private final StorageGuard storage;
    private final Hops hops = new Hops();
    private long lastAppendIndex = -1;
    private String storageText;
    private long storageTextReading = -1;
    private StorageGuard.Level storageTextLevel;

    public long commandsAppended;
    /** Every command appended since start (orders and the mass cancels of cancel on disconnect), and the first one's index. */
    public long journalled;
    public long firstJournalled = -1;
    /** Requests refused because the disk is nearly full: new orders and replaces below the reserve, anything below half of it. */
    public long storageRejectsLow;
    public long storageRejectsCritical;

    public Journal(final int gatewayId, final ExcerptAppender commands, final StorageGuard storage) {
        this.gatewayId = gatewayId;
        this.commands = commands;
        this.storage = storage;
    }

    /**
     * Whether the disk under the data directory lets a request of this type in (see {@link StorageGuard}): below the reserve
     * new orders and replaces (which add exposure) are refused and cancels still go in, from the reserve; below half of it
     * nothing more is journalled. Null when it may go in, else the text of the refusal, naming storage.
     */
    public String storageRefusal(final CommandType type, final long nowNanos) {
        final StorageGuard.Level level = storage.level(nowNanos);
        if (level == StorageGuard.Level.OK) {
            return null;
        }
        final boolean low = level == StorageGuard.Level.LOW;
        if (low && type != CommandType.NEW_ORDER && type != CommandType.REPLACE) {
            return null;
        }
        if (low) {
            storageRejectsLow++;
        } else {
            storageRejectsCritical++;
        }
        return storageText(level);
    }

    /** Made again only when the reading or the level changed, so a stream of refusals does not build a string each. */
    private String storageText(final StorageGuard.Level level) {
        if (storageText == null || storageTextReading != storage.lastReading() || storageTextLevel != level) {
            storageTextReading = storage.lastReading();
            storageTextLevel = level;
            final String figures = String.format(java.util.Locale.ROOT, " (free %.1f MiB, reserve %.1f MiB)",
                storage.lastReading() / (double) (1 << 20), storage.reserve() / (double) (1 << 20));
            storageText = level == StorageGuard.Level.LOW
                ? "exchange storage low: new orders and replaces refused, cancels accepted" + figures
                : "exchange storage critical: nothing new accepted, cancels included, until space is freed" + figures;
        }
        return storageText;
    }

    /**
     * Appends the command an {@link OrderEntry} filled in, from the session of this account, with the client's sequence
     * number of the request (0 where the protocol has none) and when its bytes were read; a balance inquiry of several
     * assets is one command per asset, numbered on, so each answer knows whether it is the last. Returns the index of the
     * (first) command appended.
     */
    public long append(final Command command, final OrderEntry entry, final long account, final long clientSeq,
                       final long readNanos, final long receiptEpochNanos) {
        hops.clear();
        hops.gatewayId = gatewayId;
        hops.sessionId = account;
        hops.clientSeqNum = (int) Math.min(Integer.MAX_VALUE, clientSeq);
        hops.gatewayReadNanos = readNanos;
        hops.receiptEpochNanos = receiptEpochNanos;
        append(command, entry.ids);
        final long first = lastAppendIndex;
        if (command.type == CommandType.BALANCE) {
            for (int k = 2; k <= entry.inquiryCount; k++) {
                command.symbol = entry.inquiryAsset(k);
                command.clientOrderId = k;
                append(command, entry.ids);
            }
        }
        return first;
    }

    private void append(final Command command, final CommandText ids) {
        CommandCodec.append(commands, command, hops, ids);
        lastAppendIndex = commands.lastIndexAppended();
        storage.wrote(CommandCodec.LENGTH + EXCERPT_OVERHEAD + ids.clientOrderIdLength + ids.newClientOrderIdLength);
        commandsAppended++;
        journalled();
    }

    /**
     * Journals a mass cancel of every order of the account, answered to no one (session 0): each cancelled order is still
     * reported to its session. What a session that ends with cancel on disconnect leaves behind.
     */
    public long appendCancelAll(final Command command, final long account, final long readNanos, final long receiptEpochNanos) {
        command.massCancel(account, Command.ALL_SYMBOLS);
        hops.clear();
        hops.gatewayId = gatewayId;
        hops.sessionId = 0;
        hops.gatewayReadNanos = readNanos;
        hops.receiptEpochNanos = receiptEpochNanos;
        CommandCodec.append(commands, command, hops);
        storage.wrote(CommandCodec.LENGTH + EXCERPT_OVERHEAD);
        lastAppendIndex = commands.lastIndexAppended();
        journalled();
        return lastAppendIndex;
    }

    private void journalled() {
        journalled++;
        if (firstJournalled < 0) {
            firstJournalled = lastAppendIndex;
        }
    }

    /** The index of the last command appended, -1 before the first. */
    public long lastAppendIndex() {
        return lastAppendIndex;
    }

    /** The commands queue's last index (anyone's). */
    public long end() {
        return commands.queue().lastIndex();
    }
}
