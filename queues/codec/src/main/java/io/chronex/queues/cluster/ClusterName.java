package io.chronex.queues.cluster;

import java.nio.charset.StandardCharsets;

/**
 * The cluster's name (config/cluster.yaml's optional {@code name:}) as a bridge and the members exchange it when the bridge
 * connects: the bridge's credentials carry the name its file gives, a member that finds another answers with a challenge that
 * carries its own (so the bridge can say both), and then refuses the session. Either side without a name checks nothing, so
 * that files written before names existed keep working.
 */
public final class ClusterName {
    /** The longest name a file may give. */
    public static final int MAX_LENGTH = 64;
    private static final String PREFIX = "chronex-cluster:";

    /** What a member and a bridge make of their two names. */
    public enum Verdict {
        /** Both named, the same. */
        SAME,
        /** One side (or both) names no cluster: nothing to compare. */
        UNCHECKED,
        /** Both named, differently: the bridge's file describes another cluster. */
        DIFFERENT
    }

    private ClusterName() {
    }

    /** Whether {@code name} may be a cluster's name: 1..64 letters, digits, '.', '_' or '-'. */
    public static boolean valid(final String name) {
        return name != null && name.matches("[A-Za-z0-9._-]{1," + MAX_LENGTH + "}");
    }

    /** The credentials (bridge) or challenge (member) carrying {@code name}; null: no name. */
    public static byte[] encode(final String name) {
        return (PREFIX + (name == null ? "" : name)).getBytes(StandardCharsets.US_ASCII);
    }

    /** The name {@code encoded} carries, or null: none, not one of ours, or not a valid name. */
    public static String decode(final byte[] encoded) {
        if (encoded == null) {
            return null;
        }
        final String text = new String(encoded, StandardCharsets.US_ASCII);
        if (!text.startsWith(PREFIX)) {
            return null;
        }
        final String name = text.substring(PREFIX.length());
        return valid(name) ? name : null;
    }

    /** The decision both sides make: different names refuse the session, a missing one is not checked. */
    public static Verdict compare(final String members, final String bridges) {
        if (members == null || bridges == null) {
            return Verdict.UNCHECKED;
        }
        return members.equals(bridges) ? Verdict.SAME : Verdict.DIFFERENT;
    }
}
