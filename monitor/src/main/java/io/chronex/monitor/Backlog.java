package io.chronex.monitor;

import java.util.ArrayDeque;

/**
 * Commands in the journal the engine has not answered yet: count, and the gateway-append time of
 * the oldest. The engine answers commands in journal order, exactly once, and every result names
 * its command's journal index, so a result for index i answers every command up to i. A command
 * read after its answer (the events tailer ran ahead) is never counted.
 */
public final class Backlog {
    /** An unanswered command: its journal index and when it was appended (System.nanoTime; wall clock nanos). */
    private record Pending(long index, long appendNanos, long receiptEpochNanos) {
    }

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long lastAnswered = -1;
    private long lastJournalIndex = -1;

    /** A command read from the journal. */
    public void onCommand(final long journalIndex, final long gatewayAppendNanos, final long receiptEpochNanos) {
        lastJournalIndex = Math.max(lastJournalIndex, journalIndex);
        if (journalIndex > lastAnswered) {
            pending.addLast(new Pending(journalIndex, gatewayAppendNanos, receiptEpochNanos));
        }
    }

    /** A result for the command at {@code commandIndex}: it and every earlier command are answered. */
    public void onAnswered(final long commandIndex) {
        lastAnswered = Math.max(lastAnswered, commandIndex);
        while (!pending.isEmpty() && pending.peekFirst().index() <= lastAnswered) {
            pending.removeFirst();
        }
    }

    /** Commands read from the journal and not answered yet. */
    public int count() {
        return pending.size();
    }

    /** The journal index of the last command answered, or -1. */
    public long lastAnswered() {
        return lastAnswered;
    }

    /** The journal's last index read, or -1. */
    public long lastJournalIndex() {
        return lastJournalIndex;
    }

    /**
     * How long the oldest unanswered command has waited, in nanoseconds: from its gateway-append
     * System.nanoTime (CLOCK_MONOTONIC, shared by every process on the host, so comparable with
     * {@code nowNanos} and immune to wall-clock steps); when it carries none, from its wall-clock
     * receipt time against {@code nowEpochNanos}. 0 when nothing waits, -1 when the oldest carries neither.
     */
    public long oldestAgeNanos(final long nowNanos, final long nowEpochNanos) {
        final Pending oldest = pending.peekFirst();
        if (oldest == null) {
            return 0;
        }
        if (oldest.appendNanos() != 0) {
            return Math.max(0, nowNanos - oldest.appendNanos());
        }
        return oldest.receiptEpochNanos() != 0 ? Math.max(0, nowEpochNanos - oldest.receiptEpochNanos()) : -1;
    }
}
