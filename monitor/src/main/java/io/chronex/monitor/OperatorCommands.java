package io.chronex.monitor;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Operator commands (what bin/admin journals: HALT, RESUME, KILL_SWITCH_ON/OFF, END_OF_DAY,
 * SET_REFERENCE_PRICE, SET_ACCOUNT_LIMITS, SNAPSHOT) apart from order flow: counts by type and the
 * last {@link #KEPT} with the engine's answer once it is read. What makes a command an operator
 * command is its type, not its gateway id: bin/inject also journals with gateway id 0, but orders.
 *
 * <p>The commands journal is the source: a command is counted when it is read there. The monitor
 * reads the events queue before the commands in each round, so an answer may be read before its
 * command; it is held until the command is read (and dropped once the journal is read past it).
 */
public final class OperatorCommands {
    /** Commands kept for display, newest last. */
    public static final int KEPT = 10;

    /** One operator command: where it is in the journal, what it is about, and the answer (null while none was read). */
    public static final class Entry {
        private final long journalIndex;
        private final CommandType type;
        private final int symbol;
        private final long account;
        private final long price;
        private String answer;

        Entry(final long journalIndex, final CommandType type, final int symbol, final long account, final long price) {
            this.journalIndex = journalIndex;
            this.type = type;
            this.symbol = symbol;
            this.account = account;
            this.price = price;
        }

        public long journalIndex() {
            return journalIndex;
        }

        public CommandType type() {
            return type;
        }

        /** The symbol id (0: none or every symbol). */
        public int symbol() {
            return symbol;
        }

        /** The account (0: none). */
        public long account() {
            return account;
        }

        /** SET_REFERENCE_PRICE's price in ticks, else 0. */
        public long price() {
            return price;
        }

        /** "accepted", "accepted, N orders cancelled" or "rejected: REASON"; null while the engine's answer has not been read. */
        public String answer() {
            return answer;
        }

        @Override
        public String toString() {
            return journalIndex + " " + type + " symbol " + symbol + " account " + account + ": " + (answer == null ? "waiting" : answer);
        }
    }

    private final Map<CommandType, Long> counts = new EnumMap<>(CommandType.class);
    private final ArrayDeque<Entry> last = new ArrayDeque<>(KEPT + 1);
    /** Answers read before their command, by journal index. */
    private final NavigableMap<Long, String> early = new TreeMap<>();
    private long total;

    /** Whether a command type is an operator's (bin/admin's) rather than order flow. */
    public static boolean isOperator(final CommandType type) {
        return type != null && switch (type) {
            case HALT, RESUME, KILL_SWITCH_ON, KILL_SWITCH_OFF, END_OF_DAY, SET_REFERENCE_PRICE, SET_ACCOUNT_LIMITS, SNAPSHOT -> true;
            case NEW_ORDER, CANCEL, REPLACE, REDUCE, MOVE, MASS_CANCEL, BALANCE -> false;
            // bin/admin's too, but not shown as operator commands yet: their symbol field is an asset id, which the
            // operator table would print as a symbol's name. Counted with the other results (accepted, rejects).
            case DEPOSIT, WITHDRAW, ADJUST -> false;
            // Not a command excerpt (the engine's configuration record): bin/audit config shows them.
            case CONFIGURATION -> false;
        };
    }

    /** A command read from the journal (any type; only operator commands are kept). */
    public void onCommand(final long journalIndex, final Command command) {
        // Answers held for commands before this one will never find them (the journal is read in order). Checked first:
        // this runs for every command, and the view and the boxed key showed in a profile of a 1M-command read.
        if (!early.isEmpty() && early.firstKey() < journalIndex) {
            early.headMap(journalIndex, false).clear();
        }
        if (!isOperator(command.type)) {
            return;
        }
        total++;
        counts.merge(command.type, 1L, Long::sum);
        final Entry entry = new Entry(journalIndex, command.type, command.symbol, command.account,
            command.type == CommandType.SET_REFERENCE_PRICE ? command.price : 0);
        entry.answer = early.remove(journalIndex);
        last.addLast(entry);
        if (last.size() > KEPT) {
            last.removeFirst();
        }
    }

    /** A result read from the events queue: the answer of the command at {@code commandIndex}. */
    public void onResult(final long commandIndex, final Result result) {
        if (!isOperator(result.commandType)) {
            return;
        }
        final String answer = result.isRejected() ? "rejected: " + result.rejectReason
            : result.affectedOrders > 0 ? "accepted, " + result.affectedOrders + " orders cancelled" : "accepted";
        for (final Entry e : last) {
            if (e.journalIndex == commandIndex) {
                e.answer = answer;
                return;
            }
        }
        if (last.isEmpty() || commandIndex > last.peekLast().journalIndex) {
            early.put(commandIndex, answer);
        }
    }

    /** Operator commands read from the journal, of all time. */
    public long total() {
        return total;
    }

    /** How many of a type were read. */
    public long count(final CommandType type) {
        return counts.getOrDefault(type, 0L);
    }

    /** Counts by type, in the enum's order, only types seen. */
    public Map<CommandType, Long> counts() {
        return new EnumMap<>(counts);
    }

    /** The last {@link #KEPT}, oldest first. */
    public List<Entry> last() {
        return new ArrayList<>(last);
    }
}
