package io.chronex.engine.cluster;

import io.chronex.api.Result;
import io.chronex.bridge.BridgeMain;
import io.chronex.gateway.GatewayMain;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.EventCodec;
import io.chronex.queues.EventHeader;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.replay.Admin;
import io.chronex.replay.JournalSummary;
import io.chronex.replay.audit.Audit;
import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.IdleStrategies;
import io.chronex.testing.Await;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test fixture: a whole cluster deployment as real processes on one box: three members (bin/cluster-node's main, each
 * on its own data directory), and a gateway host (a data directory with bin/bridge's and bin/gateway's mains on it),
 * the shipped exchange configuration and a gateway configuration written here. Before the bridge first starts, the host's
 * journal gets the deposits of config/demo-funding.admin ({@link #FUNDING_COMMANDS} commands, the first the cluster answers),
 * so that the accounts of the shipped configuration pay for their orders (FUNDS). Every process is a child JVM that
 * {@link #close} stops; what each said is in its own file under the test's directory, printed by {@link #printLogs}.
 */
final class ClusterRig implements AutoCloseable {
    static final int MEMBERS = 3;
    /** The deposits config/demo-funding.admin journals on the host first: accounts 1-4 and 101-108, 3 assets each. */
    static final int FUNDING_COMMANDS = 36;
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+) ");
    private static final Pattern ROLE = Pattern.compile("role: (\\w+)");
    /**
     * The members' and the bridge's backoff parks up to 1 ms instead of 200 µs: idle, a member took 22-29 % of a core and the
     * bridge 12-15 % with 200 µs, so three members and a bridge held about a core of the two while the test started JVMs.
     * Orders here come at most 50 a second; plain backoff (1 ms) kept up with 1,954 a second (IdleStrategies.clusterByName).
     */
    private static final String IDLE = "-D" + IdleStrategies.CLUSTER_MAX_PARK_PROPERTY + "=1000";

    final Path dir;
    final ClusterConfig cluster;
    final Path engineYaml;
    final Path gatewayYaml;
    final Path host;
    private final Path[] memberDirs = new Path[MEMBERS];
    private final Process[] members = new Process[MEMBERS];
    private final int[] memberRuns = new int[MEMBERS];
    private final Path[] memberOutputs = new Path[MEMBERS];
    /** JVM flags a member is started with on top of the usual ones (a test fault); none unless set. */
    private final List<List<String>> memberFlags = new ArrayList<>();
    private final ChildJvm jvms = new ChildJvm();
    private final List<Path> outputs = new ArrayList<>();
    private Process bridge;
    private int bridgeRuns;
    private Process gateway;
    private int gatewayRuns;
    private int port;
    /** Null when every process runs on loopback; otherwise the namespaces each member and the gateway host run in. */
    private final LabNet lab;

    /** The files and directories; nothing is started. {@code sessionsYaml}: the gateway configuration's session lines. */
    ClusterRig(final Path dir, final String sessionsYaml) throws IOException {
        this(dir, sessionsYaml, ClusterHarness.config(dir, MEMBERS), null, 0);
    }

    private ClusterRig(final Path dir, final String sessionsYaml, final ClusterConfig cluster, final LabNet lab, final int port)
        throws IOException {
        this.dir = dir;
        this.cluster = cluster;
        this.lab = lab;
        this.port = port;
        this.engineYaml = Files.copy(ProjectRoot.resolve("config/engine.yaml"), dir.resolve("engine.yaml"));
        this.gatewayYaml = Files.writeString(dir.resolve("gateway.yaml"), "compId: CHRONEX\nport: 0\nengineConfig: engine.yaml\n"
            + (lab == null ? "" : "bind: 0.0.0.0\n") + "maxMessageLength: 4096\nlogonTimeoutSeconds: 2\nsessions:\n" + sessionsYaml);
        this.host = dir.resolve("host");
        for (int id = 0; id < MEMBERS; id++) {
            memberDirs[id] = dir.resolve("node-" + id);
            memberFlags.add(List.of());
        }
    }

    /**
     * The same deployment on hosts of their own: each member ({@code PREFIX-m0} ..) and the gateway host ({@code PREFIX-g0}: bridge
     * and gateway) in a network namespace of its own (bin/lib/lab-net.sh, on 10.NET.0.0/24), the members on their namespace's
     * address with the same ports each, the bridge's results sent to the gateway host's address, the gateway on port 9880 of its
     * host, reached from this JVM over the clients' link. Whatever a crashed run left under PREFIX is taken down first.
     */
    static ClusterRig inNamespaces(final Path dir, final String sessionsYaml, final String prefix, final int net) throws IOException {
        final LabNet lab = LabNet.up(prefix, net, MEMBERS);
        try {
            final StringBuilder yaml = new StringBuilder("members:\n");
            for (int id = 0; id < MEMBERS; id++) {
                yaml.append("  - {id: ").append(id).append(", host: ").append(lab.address("m" + id)).append(", basePort: 9010}\n");
            }
            yaml.append("aeronDir: ").append(dir.resolve("aeron")).append('\n')
                .append("termLength: 512KiB\nleaderHeartbeatTimeoutMs: 2000\nsessionTimeoutMs: 10000\n");
            Files.createDirectories(dir);
            final ClusterConfig cluster = ClusterConfig.load(Files.writeString(dir.resolve("cluster.yaml"), yaml));
            return new ClusterRig(dir, sessionsYaml, cluster, lab, 9880);
        } catch (final IOException | ConfigYaml.ConfigException | RuntimeException e) {
            lab.down();
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    /** Where a client connects to the gateway: loopback, or the gateway host's address on the clients' link. */
    String gatewayHost() throws IOException {
        return lab == null ? "127.0.0.1" : lab.address("client");
    }

    /** Cuts NAME (m0, m1, m2, g0) off every other host: only on hosts of their own. */
    void isolate(final String name) throws IOException {
        lab.isolate(name);
    }

    /** Every link up again. */
    void heal() throws IOException {
        lab.heal();
    }

    /** The command as it runs on NAME's host: in its namespace on hosts of their own. */
    private List<String> on(final String name, final List<String> command) {
        return lab == null ? command : lab.inNamespace(name, command);
    }

    Path memberDir(final int id) {
        return memberDirs[id];
    }

    /** Starts (or restarts, on the same directory) member {@code id} and waits until it runs (after any wait for stale files). */
    void startMember(final int id) throws IOException, InterruptedException {
        launchMember(id);
        awaitRunning(id);
    }

    /** JVM flags (system properties such as a test fault) member {@code id} gets from its next start on. */
    void memberFlags(final int id, final String... flags) {
        memberFlags.set(id, List.of(flags));
    }

    private void launchMember(final int id) throws IOException {
        final Path out = output("node-" + id + "-run-" + (++memberRuns[id]));
        memberOutputs[id] = out;
        final List<String> command = clusterCommand(ClusterNodeMain.class.getName(), List.of("--id",
            Integer.toString(id), "--cluster", cluster.file().toString(), "--config", engineYaml.toString(), "--data-dir",
            memberDirs[id].toString(), "--idle", "backoff"));
        command.addAll(1, memberFlags.get(id));
        members[id] = jvms.start(on("m" + id, command), out);
    }

    /** What member {@code id} has said since its last start (the output of that process). */
    String memberOutput(final int id) throws IOException {
        final Path out = memberOutputs[id];
        return out == null || !Files.exists(out) ? "" : Files.readString(out);
    }

    /** A member's or the bridge's command line: {@link ChildJvm#command} with {@link #IDLE}. */
    private static List<String> clusterCommand(final String mainClass, final List<String> args) {
        final List<String> command = ChildJvm.command("256m", "-XX:+UseSerialGC", mainClass, args);
        command.add(1, IDLE);
        return command;
    }

    private void awaitRunning(final int id) throws IOException, InterruptedException {
        ChildJvm.awaitLine(members[id], memberOutputs[id], "cluster-node " + id + " running");
    }

    /** Every member started at once, as an operator's script would, then each awaited. */
    void startMembers() throws IOException, InterruptedException {
        for (int id = 0; id < MEMBERS; id++) {
            launchMember(id);
        }
        for (int id = 0; id < MEMBERS; id++) {
            awaitRunning(id);
        }
    }

    /** Waits (up to 60 s) for a line containing {@code text} in what member {@code id} said since its last start, and returns it. */
    String awaitMemberLine(final int id, final String text) throws IOException, InterruptedException {
        return ChildJvm.awaitLine(members[id], memberOutputs[id], text);
    }

    /** kill -9 of member {@code id}. */
    void killMember(final int id) throws InterruptedException {
        kill(members[id]);
        members[id] = null;
    }

    /** SIGTERM to every member at once (a full stop); returns their exit codes once each has ended. */
    List<Integer> stopMembers() throws InterruptedException {
        for (final Process member : members) {
            member.destroy();
        }
        final List<Integer> exits = new ArrayList<>();
        for (int id = 0; id < MEMBERS; id++) {
            exits.add(stop(members[id]));
            members[id] = null;
        }
        return exits;
    }

    boolean memberAlive(final int id) {
        return members[id] != null && members[id].isAlive();
    }

    /**
     * The member that leads now: the one running member whose last role line since its start says LEADER (each member
     * logs its role at every change), waited for while an election runs.
     */
    int leader() throws Exception {
        final int[] leader = {-1};
        Await.until("exactly one running member whose last role is LEADER", 60, () -> {
            int found = -1;
            int count = 0;
            for (int id = 0; id < MEMBERS; id++) {
                if (memberAlive(id) && "LEADER".equals(lastRole(id))) {
                    found = id;
                    count++;
                }
            }
            leader[0] = found;
            return count == 1;
        });
        return leader[0];
    }

    /** A running member that is not the leader. */
    int follower() throws Exception {
        final int leader = leader();
        for (int id = 0; id < MEMBERS; id++) {
            if (id != leader && memberAlive(id)) {
                return id;
            }
        }
        throw new AssertionError("no running follower");
    }

    String lastRole(final int id) throws IOException {
        // What this run said (DIR/engine.log also holds earlier runs, whose last role may be LEADER).
        final Path log = memberOutputs[id];
        if (log == null || !Files.exists(log)) {
            return null;
        }
        String role = null;
        for (final String line : Files.readAllLines(log)) {
            final Matcher m = ROLE.matcher(line);
            if (m.find()) {
                role = m.group(1);
            }
        }
        return role;
    }

    /** Starts (or restarts) the host's bridge, id 1; the first start forwards the funding deposits first. */
    void startBridge() throws IOException, InterruptedException {
        if (bridgeRuns == 0) {
            try {
                Admin.journal(DataDirectory.open(host), ProjectRoot.resolve("config/demo-funding.admin"), engineYaml);
            } catch (final ConfigYaml.ConfigException e) {
                throw new IOException("config/demo-funding.admin: " + e.getMessage(), e);
            }
        }
        final Path out = output("bridge-run-" + (++bridgeRuns));
        final List<String> args = new ArrayList<>(List.of("--cluster", cluster.file().toString(), "--data-dir", host.toString(),
            "--id", "1", "--idle", "backoff"));
        if (lab != null) {
            args.addAll(List.of("--egress-host", lab.address("g0")));
        }
        bridge = jvms.start(on("g0", clusterCommand(BridgeMain.class.getName(), args)), out);
        ChildJvm.awaitLine(bridge, out, "connecting to");
    }

    void killBridge() throws InterruptedException {
        kill(bridge);
    }

    /** Starts (or restarts) the host's gateway, on the port it had before once it had one. */
    void startGateway() throws IOException, InterruptedException {
        final Path out = output("gateway-run-" + (++gatewayRuns));
        gateway = jvms.start(on("g0", ChildJvm.command("256m", "-XX:+UseSerialGC", GatewayMain.class.getName(), List.of("--data-dir",
            host.toString(), "--config", gatewayYaml.toString(), "--port", Integer.toString(port)))), out);
        final Matcher m = LISTENING.matcher(ChildJvm.awaitLine(gateway, out, "listening on"));
        assertTrue(m.find(), "the gateway says its port");
        port = Integer.parseInt(m.group(1));
    }

    void killGateway() throws InterruptedException {
        kill(gateway);
    }

    int gatewayPort() {
        return port;
    }

    /**
     * Runs bin/admin's main in a child JVM on the host (as an operator would, through the bridge to the cluster) and
     * returns its exit code; its output is in admin-N.out.
     */
    int admin(final String... command) throws IOException, InterruptedException {
        final List<String> args = new ArrayList<>(List.of("--data-dir", host.toString(), "--config", engineYaml.toString(),
            "--timeout", "30s"));
        args.addAll(List.of(command));
        final Path out = output("admin-" + outputs.size());
        final Process admin = jvms.start(ChildJvm.command("256m", "-XX:+UseSerialGC", "io.chronex.replay.Admin", args), out);
        assertTrue(admin.waitFor(60, TimeUnit.SECONDS), "bin/admin ended");
        return admin.exitValue();
    }

    /** How many commands a data directory's events answer (read-only, as any reader); a configuration record's answer is not one. */
    static long eventCount(final Path data) {
        long count = 0;
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = DataDirectory.openReadOnly(data).events(); ExcerptTailer tailer = events.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return count;
                    }
                    if (EventCodec.read(dc.wire().bytes(), header, result) != DecodeStatus.OK
                        || result.commandType != io.chronex.api.CommandType.CONFIGURATION) {
                        count++;
                    }
                }
            }
        }
    }

    /** Waits until every running member's events hold {@code count} results. */
    void awaitMembersAnswered(final long count) throws Exception {
        for (int id = 0; id < MEMBERS; id++) {
            if (memberAlive(id)) {
                final Path data = memberDirs[id];
                Await.until("member " + id + " has answered " + count + " commands", 120, () -> eventCount(data) >= count);
            }
        }
    }

    /** Every result's canonical text, in order (the member's or the host's events), but a configuration record's answer. */
    static List<String> results(final Path data) {
        final List<String> results = new ArrayList<>();
        final EventHeader header = new EventHeader();
        final Result result = new Result();
        try (SingleChronicleQueue events = DataDirectory.openReadOnly(data).events(); ExcerptTailer tailer = events.createTailer()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return results;
                    }
                    assertEquals(DecodeStatus.OK, EventCodec.read(dc.wire().bytes(), header, result));
                    if (result.commandType != io.chronex.api.CommandType.CONFIGURATION) {
                        results.add(result.toString());
                    }
                }
            }
        }
    }

    /**
     * The checks every scenario ends with, on stopped processes: the host and every member hold {@code commands}
     * commands, each answered once (bin/journal-summary), every member's results equal the host's result for result,
     * and bin/audit verify re-executes each directory's journal and finds every result again.
     */
    void checkJournals(final long commands) {
        final List<Path> all = new ArrayList<>(List.of(memberDirs));
        all.add(host);
        final List<String> hostResults = results(host);
        for (final Path data : all) {
            final JournalSummary.Summary summary = JournalSummary.summarize(DataDirectory.openReadOnly(data));
            System.out.println("journal-summary " + data.getFileName() + ": " + summary.resultLine());
            assertEquals(commands, summary.commands(), data + ": " + summary.resultLine());
            assertTrue(summary.clean() && summary.answered() == commands, data + ": " + summary.resultLine());
            if (!data.equals(host)) {
                assertEquals(hostResults, results(data), data.getFileName() + "'s results are the host's, result for result");
            }
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final int exit;
            try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
                exit = Audit.exitCode(new String[] {"verify", "--data-dir", data.toString(), "--config", engineYaml.toString()}, out);
            }
            final String verify = bytes.toString(StandardCharsets.UTF_8);
            System.out.println("audit verify " + data.getFileName() + ": exit " + exit + "; " + lastLine(verify));
            assertEquals(0, exit, "bin/audit verify of " + data + ":\n" + verify);
            // bin/audit verify counts a journal's configuration record as one more verified excerpt (issue 41 makes the tools
            // agree); a member's journal starts with one, the host's has none.
            final long records = data.equals(host) ? 0 : 1;
            assertTrue(verify.contains("RESULT verified=" + (commands + records) + " mismatches=0 "), verify);
        }
    }

    private static String lastLine(final String text) {
        final String[] lines = text.strip().split("\n");
        return lines[lines.length - 1];
    }

    /** Every process's output, for the test report: what each member, the bridge and the gateway said. */
    void printLogs() {
        for (final Path out : outputs) {
            try {
                System.out.println("===== " + out.getFileName() + "\n" + (Files.exists(out) ? Files.readString(out) : "(none)"));
            } catch (final IOException e) {
                System.out.println("===== " + out.getFileName() + ": " + e);
            }
        }
    }

    private Path output(final String name) {
        final Path out = dir.resolve(name + ".out");
        outputs.add(out);
        return out;
    }

    private static void kill(final Process p) throws InterruptedException {
        assertTrue(p.destroyForcibly().waitFor(10, TimeUnit.SECONDS), "kill -9 ended the process");
    }

    private static int stop(final Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return -1;
        }
        return p.exitValue();
    }

    /** Stops every process still running (SIGTERM, then kill -9 after 20 s). */
    void stopAll() {
        jvms.close();
        for (int id = 0; id < MEMBERS; id++) {
            members[id] = null;
        }
    }

    /** Stops every process, then takes the namespaces down when there are any. */
    @Override
    public void close() {
        stopAll();
        if (lab != null) {
            try {
                lab.down();
            } catch (final IOException e) {
                System.out.println("taking the namespaces down: " + e.getMessage());
            }
        }
    }
}
