package io.chronex.queues.cluster;

import io.chronex.runtime.Args;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.runtime.StorageGuard;
import org.yaml.snakeyaml.nodes.Node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cluster as config/cluster.yaml describes it, read by the nodes, the bridges and bin/cluster-status: the
 * members (id, host and the first of six ports), where Aeron's driver files live, the term length and the
 * timeouts that decide how fast a dead leader is replaced (docs/cluster.md), and the cluster's optional name, which members
 * and bridges compare when a bridge connects ({@link ClusterName}; null: none given).
 */
public record ClusterConfig(Path file, List<Member> members, Path aeronDir, int termLength, long leaderHeartbeatTimeoutMs,
                            long sessionTimeoutMs, int fileSyncLevel, long leaderHeartbeatIntervalMs, long electionTimeoutMs,
                            String name) {

    /** As read from a file without a name. */
    public ClusterConfig(final Path file, final List<Member> members, final Path aeronDir, final int termLength,
                         final long leaderHeartbeatTimeoutMs, final long sessionTimeoutMs, final int fileSyncLevel,
                         final long leaderHeartbeatIntervalMs, final long electionTimeoutMs) {
        this(file, members, aeronDir, termLength, leaderHeartbeatTimeoutMs, sessionTimeoutMs, fileSyncLevel, leaderHeartbeatIntervalMs,
            electionTimeoutMs, null);
    }

    /** The leader's heartbeat interval when the file gives none: a tenth of the timeout, so that one lost heartbeat is no alarm. */
    public static final long DEFAULT_HEARTBEAT_DIVISOR = 10;
    /**
     * The election timeout when the file gives none (ms). Aeron's own default is 1 s, which a failover pays on top of the heartbeat
     * timeout: a canvass waits that long for the dead leader before it settles for a majority, and a nomination up to half of it
     * (docs/cluster.md, "Failover").
     */
    public static final long DEFAULT_ELECTION_TIMEOUT_MS = 200;

    /** As read from a file without fileSyncLevel: the log is not fsynced (Aeron's default). */
    public ClusterConfig(final Path file, final List<Member> members, final Path aeronDir, final int termLength,
                         final long leaderHeartbeatTimeoutMs, final long sessionTimeoutMs) {
        this(file, members, aeronDir, termLength, leaderHeartbeatTimeoutMs, sessionTimeoutMs, 0);
    }

    /** As read from a file without the election's timings: the defaults above. */
    public ClusterConfig(final Path file, final List<Member> members, final Path aeronDir, final int termLength,
                         final long leaderHeartbeatTimeoutMs, final long sessionTimeoutMs, final int fileSyncLevel) {
        this(file, members, aeronDir, termLength, leaderHeartbeatTimeoutMs, sessionTimeoutMs, fileSyncLevel,
            Math.max(1, leaderHeartbeatTimeoutMs / DEFAULT_HEARTBEAT_DIVISOR), DEFAULT_ELECTION_TIMEOUT_MS);
    }

    /** Ports a member uses from its basePort on: ingress, consensus, log, catch-up, archive control, status. */
    public static final int PORTS_PER_MEMBER = 6;

    /** One node: its id (0, 1, 2, ...), the host others reach it on, and basePort (ingress) .. basePort + 5. */
    public record Member(int id, String host, int basePort) {
        public int ingressPort() {
            return basePort;
        }

        public int consensusPort() {
            return basePort + 1;
        }

        public int logPort() {
            return basePort + 2;
        }

        public int catchupPort() {
            return basePort + 3;
        }

        public int archivePort() {
            return basePort + 4;
        }

        /** TCP: the member's read-only status responder (GET /status), which bin/cluster-status and bin/monitor ask. */
        public int statusPort() {
            return basePort + 5;
        }

        /** host:port. */
        public String endpoint(final int port) {
            return host + ":" + port;
        }
    }

    /** The member with this id, or a usage error naming the ids there are. */
    public Member member(final int id) {
        for (final Member m : members) {
            if (m.id() == id) {
                return m;
            }
        }
        throw new Args.UsageException(file + " has no member with id " + id + " (its members: " + ids() + ")");
    }

    /** The ids, as "0, 1, 2". */
    public String ids() {
        final StringBuilder text = new StringBuilder();
        for (final Member m : members) {
            text.append(text.length() == 0 ? "" : ", ").append(m.id());
        }
        return text.toString();
    }

    /** Aeron Cluster's member list: {@code id,ingress,consensus,log,catchup,archive|...}. */
    public String clusterMembers() {
        final StringBuilder text = new StringBuilder();
        for (final Member m : members) {
            text.append(m.id())
                .append(',').append(m.endpoint(m.ingressPort()))
                .append(',').append(m.endpoint(m.consensusPort()))
                .append(',').append(m.endpoint(m.logPort()))
                .append(',').append(m.endpoint(m.catchupPort()))
                .append(',').append(m.endpoint(m.archivePort()))
                .append('|');
        }
        text.setLength(text.length() - 1);
        return text.toString();
    }

    /** The client's view of the members: {@code id=host:ingressPort,...}. */
    public String ingressEndpoints() {
        final StringBuilder text = new StringBuilder();
        for (final Member m : members) {
            text.append(text.length() == 0 ? "" : ",").append(m.id()).append('=').append(m.endpoint(m.ingressPort()));
        }
        return text.toString();
    }

    /** The media driver directory of one process on this host: a node ("node-0") or a bridge ("bridge-1"). */
    public Path aeronDirOf(final String process) {
        return aeronDir.resolve(process);
    }

    /** Reads and checks the file: every mistake is an exception naming file:line. */
    public static ClusterConfig load(final Path file) throws ConfigException {
        final ConfigYaml yaml = new ConfigYaml(file);
        final Node root = yaml.root("'members'");
        final Map<String, Node> top = yaml.mapping(root, Set.of("members", "aeronDir", "termLength", "leaderHeartbeatTimeoutMs",
            "sessionTimeoutMs", "fileSyncLevel", "leaderHeartbeatIntervalMs", "electionTimeoutMs", "name"));
        if (!top.containsKey("members")) {
            throw yaml.error(root, "'members' is missing: the nodes of the cluster, each {id, host, basePort}");
        }
        final List<Member> members = new ArrayList<>();
        final Set<Integer> ids = new HashSet<>();
        final Set<String> endpoints = new HashSet<>();
        for (final Node node : yaml.sequence(top.get("members"))) {
            final Map<String, Node> m = yaml.mapping(node, Set.of("id", "host", "basePort"));
            final long id = yaml.required(node, m, "id");
            if (id < 0 || id > 127) {
                throw yaml.error(m.get("id"), "id must be 0..127, found " + id);
            }
            if (!ids.add((int) id)) {
                throw yaml.error(m.get("id"), "member id " + id + " appears twice");
            }
            final String host = yaml.optionalString(m, "host", "localhost");
            if (host.isBlank() || host.contains(",") || host.contains("|") || host.contains("=") || host.contains(" ")) {
                throw yaml.error(m.getOrDefault("host", node), "host '" + host + "' is not a host name or address");
            }
            final long basePort = yaml.required(node, m, "basePort");
            if (basePort < 1 || basePort > 65535 - PORTS_PER_MEMBER) {
                throw yaml.error(m.get("basePort"), "basePort must be 1.." + (65535 - PORTS_PER_MEMBER) + " (a member uses "
                    + PORTS_PER_MEMBER + " ports from it), found " + basePort);
            }
            for (int p = 0; p < PORTS_PER_MEMBER; p++) {
                if (!endpoints.add(host + ":" + (basePort + p))) {
                    throw yaml.error(m.get("basePort"), "member " + id + "'s ports overlap another member's on " + host
                        + " (each uses basePort .. basePort+" + (PORTS_PER_MEMBER - 1) + ")");
                }
            }
            members.add(new Member((int) id, host, (int) basePort));
        }
        if (members.isEmpty()) {
            throw yaml.error(top.get("members"), "'members' is empty");
        }
        final Path aeronDir = file.toAbsolutePath().getParent().resolve(yaml.optionalString(top, "aeronDir", "/dev/shm/chronex-aeron"));
        final long termLength = termLength(yaml, top);
        final long heartbeat = yaml.bounded(top, "leaderHeartbeatTimeoutMs", 2_000, 200, 600_000);
        final long session = yaml.bounded(top, "sessionTimeoutMs", 10_000, 1_000, 3_600_000);
        final long sync = yaml.bounded(top, "fileSyncLevel", 0, 0, 2);
        // Several heartbeats must fit in the timeout, or one late packet starts an election.
        final long interval = yaml.bounded(top, "leaderHeartbeatIntervalMs", Math.max(1, heartbeat / DEFAULT_HEARTBEAT_DIVISOR), 1,
            heartbeat / 4);
        // Above Aeron's election status interval (100 ms), which it must exceed.
        final long election = yaml.bounded(top, "electionTimeoutMs", DEFAULT_ELECTION_TIMEOUT_MS, 150, 60_000);
        final String name = top.containsKey("name") ? yaml.scalar(top.get("name")) : null;
        if (name != null && !ClusterName.valid(name)) {
            throw yaml.error(top.get("name"), "name must be 1.." + ClusterName.MAX_LENGTH + " letters, digits, '.', '_' or '-', found '"
                + name + "'");
        }
        return new ClusterConfig(file, List.copyOf(members), aeronDir.normalize(), (int) termLength, heartbeat, session, (int) sync,
            interval, election, name);
    }

    private static long termLength(final ConfigYaml yaml, final Map<String, Node> top) throws ConfigException {
        if (!top.containsKey("termLength")) {
            return 4L << 20;
        }
        final long value;
        try {
            value = StorageGuard.parseSize(yaml.scalar(top.get("termLength")));
        } catch (final Args.UsageException e) {
            throw yaml.error(top.get("termLength"), e.getMessage());
        }
        if (value < 64 * 1024 || value > 1L << 30 || Long.bitCount(value) != 1) {
            throw yaml.error(top.get("termLength"), "termLength must be a power of two from 64KiB to 1GiB, found " + value);
        }
        return value;
    }

}
