package io.chronex.gateway;

import io.chronex.engine.process.EngineMain;
import io.chronex.queues.DataDirectory;
import io.chronex.replay.Admin;
import io.chronex.replay.audit.Audit;
import io.chronex.runtime.ConfigYaml;
import io.chronex.testing.ChildJvm;
import io.chronex.testing.ProjectRoot;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test fixture: a real engine and a real gateway as child JVMs on a temporary data directory, with
 * the shipped engine configuration and a gateway configuration written by the test. Before the engine's first start the
 * accounts of the shipped configuration are funded (config/demo-funding.admin: {@link #FUNDING_COMMANDS} deposits journalled
 * first, so that orders pass the FUNDS risk check and journal counts start after them). Processes are
 * always stopped by {@link #close}, which then re-executes the journal with bin/audit verify: whatever a test
 * did (kills, restarts, halts, bad input), every result the engine recorded must be the one it gives again.
 */
final class Exchange implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+) ");
    /** The deposits config/demo-funding.admin journals before the engine's first start: accounts 1-4 and 101-108, 3 assets each. */
    static final int FUNDING_COMMANDS = 36;

    final Path dir;
    final Path data;
    final Path gatewayConfig;
    private final ChildJvm jvms = new ChildJvm();
    private Process engine;
    private Process gateway;
    private int gatewayRun;
    /** False until the funding is journalled; a test that wants unfunded accounts sets it true before the first start. */
    boolean funded;
    /** An events excerpt the test wrote itself (not the engine's), which verify must name; -1 when none. */
    private long foreignEvent = -1;
    int port;
    /** Extra program arguments for every start of the engine and of gateway 1 (e.g. --storage-reserve). */
    final List<String> engineArgs = new java.util.ArrayList<>();
    final List<String> gatewayArgs = new java.util.ArrayList<>();

    Exchange(final Path dir, final String sessionsYaml) throws IOException {
        this(dir, sessionsYaml, "logonTimeoutSeconds: 2\n");
    }

    /** With {@code limitsYaml} (top-level lines such as logonTimeoutSeconds and maxConnections) in the gateway's file. */
    Exchange(final Path dir, final String sessionsYaml, final String limitsYaml) throws IOException {
        this(dir, dir.resolve("data"), sessionsYaml, limitsYaml);
    }

    /** With the data directory at {@code data} (a small filesystem, say), the configuration files and logs in {@code dir}. */
    Exchange(final Path dir, final Path data, final String sessionsYaml, final String limitsYaml) throws IOException {
        this.dir = dir;
        this.data = data;
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), dir.resolve("engine.yaml"));
        gatewayConfig = dir.resolve("gateway.yaml");
        Files.writeString(gatewayConfig, "compId: CHRONEX\nport: 0\nengineConfig: engine.yaml\nmaxMessageLength: 4096\n"
            + limitsYaml + "sessions:\n" + sessionsYaml);
    }

    void startEngine() throws IOException, InterruptedException {
        startEngine(List.of());
    }

    /** Starts (or restarts) the engine with these extra JVM options (e.g. -Dchronex.engine.slowDownMicros=N). */
    void startEngine(final List<String> jvmOptions) throws IOException, InterruptedException {
        if (!funded) {
            fund();
        }
        final List<String> command = new java.util.ArrayList<>(ChildJvm.command("256m", "-XX:+UseSerialGC", EngineMain.class.getName(),
            List.of("--data-dir", data.toString(), "--config", dir.resolve("engine.yaml").toString(), "--snapshot-every", "0")));
        command.addAll(engineArgs);
        command.addAll(1, jvmOptions);
        engine = jvms.start(command, dir.resolve("engine.out"));
        await(engine, dir.resolve("engine.out"), "engine started");
    }

    /** Journals the deposits of config/demo-funding.admin (the engine answers them first when it starts). */
    private void fund() throws IOException {
        fund(data, dir.resolve("engine.yaml"));
        funded = true;
    }

    /**
     * Journals config/demo-funding.admin's {@link #FUNDING_COMMANDS} deposits into a data directory (created if need be) whose
     * engine has not started yet, or has answered everything so far: it answers them before any later command.
     */
    static void fund(final Path data, final Path engineConfig) throws IOException {
        try {
            Admin.journal(DataDirectory.open(data), ProjectRoot.resolve("config/demo-funding.admin"), engineConfig);
        } catch (final ConfigYaml.ConfigException e) {
            throw new IOException("config/demo-funding.admin: " + e.getMessage(), e);
        }
    }

    /** Starts (or restarts) the gateway, on the port it had before if it had one. */
    void startGateway() throws IOException, InterruptedException {
        startGateway(List.of());
    }

    /** Starts (or restarts) the gateway with these extra JVM options (e.g. a -D fault injection). */
    void startGateway(final List<String> jvmOptions) throws IOException, InterruptedException {
        final Path log = dir.resolve("gateway-" + (++gatewayRun) + ".out");
        final List<String> command = new java.util.ArrayList<>(ChildJvm.command("256m", "-XX:+UseSerialGC", GatewayMain.class.getName(),
            List.of("--data-dir", data.toString(), "--config", gatewayConfig.toString(), "--port", Integer.toString(port))));
        command.addAll(gatewayArgs);
        command.addAll(1, jvmOptions);
        gateway = jvms.start(command, log);
        final String line = await(gateway, log, "listening on");
        final Matcher m = LISTENING.matcher(line);
        if (!m.find()) {
            throw new IllegalStateException("no port in: " + line);
        }
        port = Integer.parseInt(m.group(1));
    }

    /** Starts gateway 2 on a free port and returns the port. */
    int startGateway2() throws IOException, InterruptedException {
        final Path log = dir.resolve("gateway2.out");
        final Process p = start(GatewayMain.class.getName(), "gateway2", List.of("--data-dir", data.toString(), "--config",
            gatewayConfig.toString(), "--id", "2", "--port", "0"));
        final Matcher m = LISTENING.matcher(await(p, log, "listening on"));
        if (!m.find()) {
            throw new IllegalStateException("no port in gateway 2's log");
        }
        return Integer.parseInt(m.group(1));
    }

    /** Whether the engine process is still running. */
    boolean engineAlive() {
        return engine != null && engine.isAlive();
    }

    /** SIGKILL of the engine; {@link #startEngine} starts it again. */
    void killEngine() throws InterruptedException {
        engine.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Whether the gateway process is still running. */
    boolean processAlive() {
        return gateway != null && gateway.isAlive();
    }

    void killGateway() throws InterruptedException {
        gateway.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM; returns the exit code. */
    int stopGateway() throws InterruptedException {
        gateway.destroy();
        if (!gateway.waitFor(20, TimeUnit.SECONDS)) {
            gateway.destroyForcibly();
            return -1;
        }
        return gateway.exitValue();
    }

    /** Waits for a line of the running gateway's log containing text (at most 60 s) and returns it. */
    String awaitGatewayLine(final String text) throws IOException, InterruptedException {
        return await(gateway, dir.resolve("gateway-" + gatewayRun + ".out"), text);
    }

    String engineLog() throws IOException {
        return Files.readString(dir.resolve("engine.out"));
    }

    String gatewayLog() throws IOException {
        final StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= gatewayRun; i++) {
            sb.append(Files.readString(dir.resolve("gateway-" + i + ".out")));
        }
        return sb.toString();
    }

    private Process start(final String mainClass, final String name, final List<String> args) throws IOException {
        return jvms.start(mainClass, args, dir.resolve(name + ".out"));
    }

    private static String await(final Process process, final Path log, final String text) throws IOException, InterruptedException {
        return ChildJvm.awaitLine(process, log, text);
    }

    @Override
    public void close() {
        jvms.close();
        if (engine != null) {
            verifyJournal();
        }
    }

    /** The test appended an excerpt of its own to the events queue at that index: verify must stop there instead of passing. */
    void foreignEventAt(final long eventsIndex) {
        foreignEvent = eventsIndex;
    }

    private void verifyJournal() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(new String[] {"verify", "--data-dir", data.toString(), "--config", dir.resolve("engine.yaml").toString()},
                out);
        }
        final String output = bytes.toString(StandardCharsets.UTF_8);
        if (foreignEvent >= 0) {
            if (exit != 1 || !output.contains("events index 0x" + Long.toHexString(foreignEvent) + " ")) {
                throw new AssertionError("bin/audit verify should name the test's own events excerpt 0x" + Long.toHexString(foreignEvent)
                    + ": exit " + exit + "\n" + output);
            }
            return;
        }
        if (exit != 0 || !output.contains(" mismatches=0 ")) {
            throw new AssertionError("bin/audit verify of the test's journal: exit " + exit + "\n" + output);
        }
    }
}
