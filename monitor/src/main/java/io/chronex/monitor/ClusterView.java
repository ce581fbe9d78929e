package io.chronex.monitor;

import io.aeron.CncFileDescriptor;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.service.Cluster;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.ClusterCounters;
import io.chronex.runtime.MemberStatus;
import org.agrona.IoUtil;
import org.agrona.SemanticVersion;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cluster as this host's files show it ({@code bin/cluster-status --local}), and the records every cluster reader
 * fills ({@link NetClusterView}, the default, asks the members over the network). Read-only: for each member of
 * config/cluster.yaml, its media driver's {@code cnc.dat} (in the member's Aeron directory) mapped read-only, the driver's
 * liveness from its pid and the
 * heartbeat it stamps on its command buffer, and the consensus module's counters (role, module state, election
 * state, leadership term, commit position, elections, snapshots). Nothing is written, locked or connected to: a
 * member is not asked anything, so a stuck member cannot stall the reader. A member on another host has no
 * directory here and reads as "not running on this host".
 */
public final class ClusterView implements ClusterReader {
    /**
     * A driver whose heartbeat is older than this is down (Aeron's own clients give up on a driver after the same
     * 10 s). The driver stamps it once a second; a driver that closed stamps -1 and a killed one's pid is gone, both
     * seen at once; this only decides for a driver stopped (SIGSTOP) or starved.
     */
    public static final long DRIVER_TIMEOUT_MS = 10_000;
    /** Aeron's "no value". */
    public static final long NONE = -1;

    /** Whether a member runs: here (its driver's files) or at all (over the network, where a member is up or down). */
    public enum Liveness {
        /** Its driver's pid lives and its heartbeat is fresh; over the network: it answered its status. */
        UP,
        /** A cnc.dat is there but its driver is dead, stale or not started. */
        DOWN,
        /** No Aeron directory for it on this host (never started here, stopped cleanly, or on another host). */
        ABSENT
    }

    /** A member's storage level when it is not known (read from Aeron's counters on this host, not from its status port). */
    public static final String UNKNOWN = "?";

    /**
     * One member: {@code local} when its host names this machine (a loopback or one of its interfaces' addresses), so
     * that its absence means it is not running rather than that it runs elsewhere; {@code detail} says why it is down or
     * absent (empty when up); {@code role}, {@code moduleState} and {@code electionState} are null and the numbers
     * {@link #NONE} when the counter is not there (a member starting, or down: a dead driver's counters are not read).
     * Read over the network, {@code local} is false, {@code aeronDir} null and {@code heartbeatAgeMs} {@link #NONE};
     * {@code storage} is the level its status port gives (ok, low, critical, exhausted), {@link #UNKNOWN} otherwise.
     */
    public record Member(int id, String host, boolean local, Path aeronDir, Liveness liveness, String detail, long pid,
                         long heartbeatAgeMs, Cluster.Role role, ConsensusModule.State moduleState, ElectionState electionState,
                         long leadershipTermId, long commitPosition, long electionCount, long snapshotCount, String storage) {
        public boolean up() {
            return liveness == Liveness.UP;
        }

        /** Whether its data directory's free space is below the member's reserve (low, critical or exhausted). */
        public boolean storageShort() {
            return !"ok".equals(storage) && !UNKNOWN.equals(storage);
        }

        /** "leader", "follower", "candidate" or "?". */
        public String roleName() {
            return role == null ? "?" : role.name().toLowerCase(Locale.ROOT);
        }

        /** "up", "down (why)" or "not running on this host". */
        public String describe() {
            return switch (liveness) {
                case UP -> "up";
                case DOWN -> "down (" + detail + ")";
                case ABSENT -> "not running on this host";
            };
        }
    }

    /** All members as read at {@code readAt}, in the config's order; {@code overNetwork} when asked, not read from this host's files. */
    public record Snapshot(Path config, Instant readAt, List<Member> members, boolean overNetwork) {
        /** Read from this host's files. */
        public Snapshot(final Path config, final Instant readAt, final List<Member> members) {
            this(config, readAt, members, false);
        }

        /** Where the members up are counted: "" over the network, " on this host" from this host's files. */
        public String where() {
            return overNetwork ? "" : " on this host";
        }

        /** The member that is up and says it leads (the highest leadership term if two do, as for a moment they may); null if none. */
        public Member leader() {
            Member leader = null;
            for (final Member m : members) {
                if (m.up() && m.role() == Cluster.Role.LEADER && (leader == null || m.leadershipTermId() > leader.leadershipTermId())) {
                    leader = m;
                }
            }
            return leader;
        }

        /** Members up. */
        public int up() {
            int n = 0;
            for (final Member m : members) {
                n += m.up() ? 1 : 0;
            }
            return n;
        }

        /** The leader's commit position less this member's; {@link #NONE} without a leader or a position. */
        public long lag(final Member member) {
            final Member leader = leader();
            if (leader == null || !member.up() || leader.commitPosition() < 0 || member.commitPosition() < 0) {
                return NONE;
            }
            return leader.commitPosition() - member.commitPosition();
        }

        /**
         * Alerts in the monitor's words: no leader; a member down (over the network: it did not answer; from files: its
         * driver's files left by a dead or stale driver); from files, a member whose host is this one not running. A member
         * of another host with no files here is not an alert (it is one over the network when it does not answer).
         */
        public List<String> alerts() {
            final List<String> alerts = new ArrayList<>();
            if (leader() == null) {
                alerts.add(up() > 0 ? "NO CLUSTER LEADER" : overNetwork ? "NO CLUSTER LEADER (no member answers)"
                    : "NO CLUSTER LEADER (no member up on this host)");
            }
            for (final Member m : members) {
                if (m.liveness() == Liveness.DOWN) {
                    alerts.add("CLUSTER MEMBER " + m.id() + " DOWN (" + m.detail() + ")");
                } else if (m.liveness() == Liveness.ABSENT && m.local()) {
                    alerts.add("CLUSTER MEMBER " + m.id() + " NOT RUNNING (its host " + m.host() + " is this one)");
                } else if (m.up() && m.storageShort()) {
                    // critical: no snapshot files; exhausted: its journal writes wait for space (docs/cluster.md).
                    alerts.add("CLUSTER MEMBER " + m.id() + " STORAGE " + m.storage().toUpperCase(Locale.ROOT));
                }
            }
            return alerts;
        }
    }

    /**
     * A member's line, as bin/cluster-status and the monitor print it: id, host, liveness, role, consensus module state,
     * election state, leadership term, commit position, lag behind the leader's commit position, elections, snapshots, and
     * its storage level when its status port gave one.
     */
    public static String line(final Snapshot view, final Member m) {
        if (!m.up()) {
            return String.format(Locale.ROOT, "member %d  %-12s %s", m.id(), m.host(), m.describe());
        }
        final long lag = view.lag(m);
        return String.format(Locale.ROOT, "member %d  %-12s up    %-9s state %-8s election %-22s term %d  commit %d  lag %s"
                + "  elections %d  snapshots %d%s", m.id(), m.host(), m.roleName(), name(m.moduleState()), name(m.electionState()),
            m.leadershipTermId(), m.commitPosition(), lag == NONE ? "?" : Long.toString(lag), m.electionCount(), m.snapshotCount(),
            UNKNOWN.equals(m.storage()) ? "" : "  storage " + m.storage());
    }

    /** {@code RESULT leader=<id>|none members=<up> term=<t> commit_position=<p>} (term and position -1 without a leader). */
    public static String result(final Snapshot view) {
        final Member leader = view.leader();
        return "RESULT leader=" + (leader == null ? "none" : Integer.toString(leader.id())) + " members=" + view.up() + " term="
            + (leader == null ? NONE : leader.leadershipTermId()) + " commit_position=" + (leader == null ? NONE : leader.commitPosition());
    }

    /** An enum constant's name, or "?" for a counter that is missing or holds a code this Aeron does not know. */
    static String name(final Enum<?> value) {
        return MemberStatus.name(value);
    }

    private final ClusterConfig config;
    /** Whether each member's host is this machine, looked up once (a name lookup may be slow). */
    private final boolean[] local;

    public ClusterView(final ClusterConfig config) {
        this.config = config;
        this.local = new boolean[config.members().size()];
        for (int i = 0; i < local.length; i++) {
            local[i] = isThisHost(config.members().get(i).host());
        }
    }

    /** A loopback address or one of this machine's interfaces' addresses; false for a name that does not resolve. */
    static boolean isThisHost(final String host) {
        try {
            for (final InetAddress address : InetAddress.getAllByName(host)) {
                if (address.isLoopbackAddress() || address.isAnyLocalAddress() || NetworkInterface.getByInetAddress(address) != null) {
                    return true;
                }
            }
            return false;
        } catch (final IOException e) {
            return false;
        }
    }

    @Override
    public ClusterConfig config() {
        return config;
    }

    /** Reads every member now. */
    @Override
    public Snapshot read() {
        final List<Member> members = new ArrayList<>(config.members().size());
        final long nowMs = System.currentTimeMillis();
        for (int i = 0; i < local.length; i++) {
            final ClusterConfig.Member m = config.members().get(i);
            members.add(read(m.id(), m.host(), local[i], config.aeronDirOf("node-" + m.id()), nowMs));
        }
        return new Snapshot(config.file(), Instant.ofEpochMilli(nowMs), List.copyOf(members));
    }

    /** One member from the cnc.dat in {@code aeronDir}, mapped read-only for the read and unmapped after it. */
    static Member read(final int id, final String host, final boolean local, final Path aeronDir, final long nowMs) {
        final File cnc = aeronDir.resolve(CncFileDescriptor.CNC_FILE).toFile();
        if (!aeronDir.toFile().isDirectory()) {
            return absent(id, host, local, aeronDir, "no " + aeronDir);
        }
        if (!cnc.isFile()) {
            return down(id, host, local, aeronDir, "no cnc.dat in " + aeronDir + ": its driver is not started", NONE, NONE);
        }
        if (cnc.length() <= CncFileDescriptor.END_OF_METADATA_OFFSET) {
            return down(id, host, local, aeronDir, "cnc.dat is being created", NONE, NONE);
        }
        final MappedByteBuffer mapped;
        try {
            mapped = IoUtil.mapExistingFile(cnc, FileChannel.MapMode.READ_ONLY, "cnc");
        } catch (final RuntimeException e) {
            // Deleted between the look and the map: the driver closed (it deletes its directory) a moment ago.
            return cnc.exists() ? down(id, host, local, aeronDir, "cannot map cnc.dat: " + e.getMessage(), NONE, NONE)
                : absent(id, host, local, aeronDir, "no " + cnc);
        }
        try {
            return read(id, host, local, aeronDir, mapped, nowMs);
        } finally {
            IoUtil.unmap(mapped);
        }
    }

    private static Member read(final int id, final String host, final boolean local, final Path aeronDir, final MappedByteBuffer cnc,
                               final long nowMs) {
        final UnsafeBuffer meta = CncFileDescriptor.createMetaDataBuffer(cnc);
        final int version = meta.getIntVolatile(CncFileDescriptor.cncVersionOffset(0));
        if (version == 0) {
            return down(id, host, local, aeronDir, "its driver is starting (cnc.dat not ready)", NONE, NONE);
        }
        if (SemanticVersion.major(version) != SemanticVersion.major(CncFileDescriptor.CNC_VERSION)) {
            return down(id, host, local, aeronDir, "cnc.dat version " + SemanticVersion.toString(version) + ", this reader knows "
                + SemanticVersion.toString(CncFileDescriptor.CNC_VERSION), NONE, NONE);
        }
        if (!CncFileDescriptor.isCncFileLengthSufficient(meta, cnc.capacity())) {
            return down(id, host, local, aeronDir, "cnc.dat is shorter than its header says", NONE, NONE);
        }
        final long pid = CncFileDescriptor.pid(meta);
        final long heartbeatMs = new ManyToOneRingBuffer(CncFileDescriptor.createToDriverBuffer(cnc, meta)).consumerHeartbeatTime();
        final long ageMs = heartbeatMs <= 0 ? NONE : Math.max(0, nowMs - heartbeatMs);
        if (pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return down(id, host, local, aeronDir, "driver pid " + pid + " is not running", pid, ageMs);
        }
        if (heartbeatMs <= 0) {
            return down(id, host, local, aeronDir, "its driver has closed", pid, ageMs);
        }
        if (ageMs > DRIVER_TIMEOUT_MS) {
            return down(id, host, local, aeronDir, "driver heartbeat " + ageMs + " ms old", pid, ageMs);
        }
        final ClusterCounters c = ClusterCounters.read(new CountersReader(CncFileDescriptor.createCountersMetaDataBuffer(cnc, meta),
            CncFileDescriptor.createCountersValuesBuffer(cnc, meta), StandardCharsets.US_ASCII));
        return new Member(id, host, local, aeronDir, Liveness.UP, "", pid, ageMs, c.role(), c.moduleState(), c.electionState(),
            c.leadershipTermId(), c.commitPosition(), c.electionCount(), c.snapshotCount(), UNKNOWN);
    }

    private static Member absent(final int id, final String host, final boolean local, final Path aeronDir, final String detail) {
        return new Member(id, host, local, aeronDir, Liveness.ABSENT, detail, NONE, NONE, null, null, null, NONE, NONE, NONE, NONE,
            UNKNOWN);
    }

    private static Member down(final int id, final String host, final boolean local, final Path aeronDir, final String detail,
                               final long pid, final long ageMs) {
        return new Member(id, host, local, aeronDir, Liveness.DOWN, detail, pid, ageMs, null, null, null, NONE, NONE, NONE, NONE, UNKNOWN);
    }
}
