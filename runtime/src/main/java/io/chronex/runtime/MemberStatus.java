package io.chronex.runtime;

import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.service.Cluster;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a cluster member answers on {@code GET /status} (its status port, ClusterConfig's basePort+5), and the parser its
 * readers use: one {@code key=value} a line, as text/plain, so that {@code curl} shows it and a shell can grep it.
 * The writer (the member) and the reader (bin/cluster-status, bin/monitor) are different processes, often of different
 * builds: the reader ignores keys it does not know and reads an enum name it does not know as unknown.
 *
 * <pre>
 * member=0
 * role=leader              leader, follower, candidate, ? (counter not there yet)
 * state=ACTIVE             the consensus module's state, or ?
 * election=CLOSED          the election's state, or ?
 * term=3                   the leadership term id (-1: not known)
 * commit_position=12345    bytes of the log known committed (-1: not known)
 * elections=2
 * snapshots=0
 * applied=150              commands the member's service applied since it started (the log's replay included)
 * pid=4711
 * storage=ok               its data directory's free space: ok, low, critical (no snapshot files), exhausted (paused), ?
 * </pre>
 */
public record MemberStatus(int member, ClusterCounters counters, long applied, long pid, String storage) {
    /** A member that does not say how its disk stands (an older build's, or a service that does not look). */
    public MemberStatus(final int member, final ClusterCounters counters, final long applied, final long pid) {
        this(member, counters, applied, pid, "?");
    }

    /** The one path a status responder answers. */
    public static final String PATH = "/status";
    /** The content type of the answer. */
    public static final String CONTENT_TYPE = "text/plain; charset=us-ascii";

    /** The answer's text. */
    public String text() {
        return "member=" + member + '\n'
            + "role=" + counters.roleName() + '\n'
            + "state=" + name(counters.moduleState()) + '\n'
            + "election=" + name(counters.electionState()) + '\n'
            + "term=" + counters.leadershipTermId() + '\n'
            + "commit_position=" + counters.commitPosition() + '\n'
            + "elections=" + counters.electionCount() + '\n'
            + "snapshots=" + counters.snapshotCount() + '\n'
            + "applied=" + applied + '\n'
            + "pid=" + pid + '\n'
            + "storage=" + storage + '\n';
    }

    /** An enum constant's name, or "?" for a counter that is missing or holds a code this Aeron does not know. */
    public static String name(final Enum<?> value) {
        return value == null ? "?" : value.name();
    }

    /**
     * Reads an answer: {@code key=value} tokens separated by line breaks or spaces. {@code member}, {@code role},
     * {@code term} and {@code commit_position} must be there; the other numbers read as -1 and the states as unknown when
     * missing. Anything else that is not {@code key=value}, or a number that is not one, is an
     * {@link IllegalArgumentException} saying what.
     */
    public static MemberStatus parse(final CharSequence text) {
        final String trimmed = text.toString().trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("an empty answer");
        }
        final Map<String, String> values = new HashMap<>();
        for (final String token : trimmed.split("\\s+")) {
            final int eq = token.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + printable(token) + "' is not key=value");
            }
            values.put(token.substring(0, eq), token.substring(eq + 1));
        }
        for (final String key : new String[] {"member", "role", "term", "commit_position"}) {
            if (!values.containsKey(key)) {
                throw new IllegalArgumentException("no " + key + "=");
            }
        }
        final long member = number(values, "member");
        if (member < 0 || member > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("member=" + member + " is not a member id");
        }
        final ClusterCounters counters = new ClusterCounters(
            constant(Cluster.Role.class, values.get("role")),
            constant(ConsensusModule.State.class, values.get("state")),
            constant(ElectionState.class, values.get("election")),
            number(values, "term"), number(values, "commit_position"), number(values, "elections"), number(values, "snapshots"));
        final String storage = values.getOrDefault("storage", "?");
        return new MemberStatus((int) member, counters, number(values, "applied"), number(values, "pid"),
            storage.matches("[a-z?]{1,16}") ? storage : "?");
    }

    private static long number(final Map<String, String> values, final String key) {
        final String value = values.get(key);
        if (value == null) {
            return ClusterCounters.NONE;
        }
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(key + "='" + printable(value) + "' is not a number");
        }
    }

    private static <E extends Enum<E>> E constant(final Class<E> type, final String name) {
        if (name == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, name.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            return null; // "?", or a state a newer Aeron added: unknown, as the counter reader shows a code it does not know
        }
    }

    /** At most 40 characters of something a peer sent, printable ASCII only, for an error message. */
    public static String printable(final String text) {
        final StringBuilder out = new StringBuilder(Math.min(text.length(), 43));
        for (int i = 0; i < text.length() && i < 40; i++) {
            final char c = text.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return text.length() > 40 ? out.append("...").toString() : out.toString();
    }
}
