package io.chronex.gateway;

import io.chronex.engine.process.EngineMain;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test fixture: a real engine and a real gateway as child JVMs on a temporary data directory, with
 * the shipped engine configuration and a gateway configuration written by the test. Processes are
 * always stopped by {@link #close}.
 */
final class Exchange implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^:]+:(\\d+) ");

    final Path dir;
    final Path data;
    final Path gatewayConfig;
    private final List<Process> processes = new ArrayList<>();
    private Process engine;
    private Process gateway;
    private int gatewayRun;
    int port;

    Exchange(final Path dir, final String sessionsYaml) throws IOException {
        this.dir = dir;
        this.data = dir.resolve("data");
        final Path root = Path.of(System.getProperty("chronex.root", "..")).toAbsolutePath().normalize();
        Files.copy(root.resolve("config/engine.yaml"), dir.resolve("engine.yaml"));
        gatewayConfig = dir.resolve("gateway.yaml");
        Files.writeString(gatewayConfig, "compId: CHRONEX\nport: 0\nengineConfig: engine.yaml\nmaxMessageLength: 4096\n"
            + "logonTimeoutSeconds: 2\nsessions:\n" + sessionsYaml);
    }

    void startEngine() throws IOException, InterruptedException {
        engine = start(EngineMain.class.getName(), "engine", List.of("--data-dir", data.toString(), "--config",
            dir.resolve("engine.yaml").toString(), "--snapshot-every", "0"));
        await(engine, dir.resolve("engine.out"), "engine started");
    }

    /** Starts (or restarts) the gateway, on the port it had before if it had one. */
    void startGateway() throws IOException, InterruptedException {
        final Path log = dir.resolve("gateway-" + (++gatewayRun) + ".out");
        gateway = start(GatewayMain.class.getName(), "gateway-" + gatewayRun, List.of("--data-dir", data.toString(), "--config",
            gatewayConfig.toString(), "--port", Integer.toString(port)));
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

    String gatewayLog() throws IOException {
        final StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= gatewayRun; i++) {
            sb.append(Files.readString(dir.resolve("gateway-" + i + ".out")));
        }
        return sb.toString();
    }

    private Process start(final String mainClass, final String name, final List<String> args) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("--add-") || a.startsWith("-Dchronicle") || a.startsWith("-Ddisable")).toList());
        command.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".out").toFile()).start();
        processes.add(process);
        return process;
    }

    private static String await(final Process process, final Path log, final String text) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                Thread.sleep(200);
                throw new IllegalStateException("the process ended (exit " + process.exitValue() + ") before '" + text + "':\n"
                    + Files.readString(log));
            }
            if (Files.exists(log)) {
                for (final String line : Files.readAllLines(log)) {
                    if (line.contains(text)) {
                        return line;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("'" + text + "' did not appear in " + log + ":\n" + (Files.exists(log) ? Files.readString(log) : ""));
    }

    @Override
    public void close() throws InterruptedException {
        for (final Process p : processes) {
            if (p.isAlive()) {
                p.destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
