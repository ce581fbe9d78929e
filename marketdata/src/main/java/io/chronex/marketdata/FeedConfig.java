package io.chronex.marketdata;

import io.chronex.runtime.Args;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.runtime.StorageGuard;
import org.yaml.snakeyaml.nodes.Node;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The feed's settings (config/marketdata.yaml): the two channels as the publisher sends on them and as clients join
 * them, the snapshot cycle, the heartbeat, Aeron's directories and term length, where the symbols are defined, the
 * client's recovery buffer, and the pause of the publisher's and clients' loops under
 * {@code --idle backoff}. Every mistake is an exception naming file:line.
 */
public record FeedConfig(String incrementalPublication, String incrementalSubscription, int incrementalStream,
                         String snapshotPublication, String snapshotSubscription, int snapshotStream,
                         long snapshotIntervalNanos, long heartbeatIntervalNanos, Path aeronDir, int termLength,
                         Path engineConfig, int recoveryBufferBytes, long backPressureLimitNanos, long pauseNanos) {
    private static final Set<String> KEYS = Set.of("incrementalPublication", "incrementalSubscription", "incrementalStream",
        "snapshotPublication", "snapshotSubscription", "snapshotStream", "snapshotIntervalMs", "heartbeatIntervalMs", "aeronDir",
        "termLength", "engineConfig", "recoveryBufferBytes", "backPressureLimitMs",
        "pauseMicros");

    /** The loopback multi-destination-cast publication on a control port: clients join it at any time. */
    public static String publication(final int controlPort) {
        return "aeron:udp?control=localhost:" + controlPort + "|control-mode=dynamic";
    }

    /** A client's side of {@link #publication}: any free local port, announced to the publisher's control port. */
    public static String subscription(final int controlPort) {
        return "aeron:udp?endpoint=localhost:0|control=localhost:" + controlPort + "|control-mode=dynamic";
    }

    /** Reads and checks the file; relative paths in it are relative to its folder. */
    public static FeedConfig load(final Path file) throws ConfigException {
        final ConfigYaml yaml = new ConfigYaml(file);
        final Node root = yaml.root("the channels");
        final Map<String, Node> m = yaml.mapping(root, KEYS);
        final Path folder = file.toAbsolutePath().getParent();
        final int incrementalStream = (int) yaml.bounded(m, "incrementalStream", 1001, 1, Integer.MAX_VALUE);
        final int snapshotStream = (int) yaml.bounded(m, "snapshotStream", 1002, 1, Integer.MAX_VALUE);
        final String incPub = channel(yaml, m, "incrementalPublication", publication(40456));
        final String snapPub = channel(yaml, m, "snapshotPublication", publication(40457));
        if (incPub.equals(snapPub) && incrementalStream == snapshotStream) {
            throw yaml.error(root, "the incremental and snapshot channels must differ in channel or stream");
        }
        return new FeedConfig(incPub, channel(yaml, m, "incrementalSubscription", subscription(40456)), incrementalStream,
            snapPub, channel(yaml, m, "snapshotSubscription", subscription(40457)), snapshotStream,
            yaml.bounded(m, "snapshotIntervalMs", 500, 10, 600_000) * 1_000_000L,
            yaml.bounded(m, "heartbeatIntervalMs", 200, 10, 60_000) * 1_000_000L,
            folder.resolve(yaml.optionalString(m, "aeronDir", "/dev/shm/chronex-aeron")).normalize(),
            (int) size(yaml, m, "termLength", 16L << 20, 64 * 1024, 1L << 30, true),
            folder.resolve(yaml.optionalString(m, "engineConfig", "engine.yaml")).normalize(),
            (int) size(yaml, m, "recoveryBufferBytes", 8L << 20, 64 * 1024, 1L << 30, false),
            yaml.bounded(m, "backPressureLimitMs", 100, 1, 60_000) * 1_000_000L,
            yaml.bounded(m, "pauseMicros", 1_000, 0, 100_000) * 1_000L);
    }

    private static String channel(final ConfigYaml yaml, final Map<String, Node> m, final String key, final String fallback)
        throws ConfigException {
        final String value = yaml.optionalString(m, key, fallback);
        if (!value.startsWith("aeron:udp?") && !value.startsWith("aeron:ipc")) {
            throw yaml.error(m.get(key), key + " must be an Aeron UDP or IPC channel (aeron:udp?...), found '" + value + "'");
        }
        return value;
    }


    private static long size(final ConfigYaml yaml, final Map<String, Node> m, final String key, final long fallback,
                             final long min, final long max, final boolean powerOfTwo) throws ConfigException {
        if (!m.containsKey(key)) {
            return fallback;
        }
        final long value;
        try {
            value = StorageGuard.parseSize(yaml.scalar(m.get(key)));
        } catch (final Args.UsageException e) {
            throw yaml.error(m.get(key), e.getMessage());
        }
        if (value < min || value > max || powerOfTwo && Long.bitCount(value) != 1) {
            throw yaml.error(m.get(key), key + " must be " + (powerOfTwo ? "a power of two " : "") + "from " + min + " to " + max
                + " bytes, found " + value);
        }
        return value;
    }
}
