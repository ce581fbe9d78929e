package io.chronex.engine.cluster;

import io.chronex.testing.ProjectRoot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Hosts of their own for the cluster's tests: bin/lib/lab-net.sh (what bin/cluster-lab builds on) run from Java. Each member
 * and the gateway host get a network namespace ({@code PREFIX-m0}, ..., {@code PREFIX-g0}) with an address on one bridge;
 * the test's own JVM, in the root namespace, reaches the gateway host's FIX port over a link of its own.
 */
final class LabNet {
    private final String prefix;
    private final int net;

    private LabNet(final String prefix, final int net) {
        this.prefix = prefix;
        this.net = net;
    }

    /** Why namespaces cannot be made here (not root, no ip command), or null when they can. */
    static String unavailable() {
        try {
            final Result id = run(List.of("id", "-u"));
            if (!"0".equals(id.output().strip())) {
                return "network namespaces need root (ip netns add); this test runs as uid " + id.output().strip();
            }
            final Result ip = run(List.of("sh", "-c", "command -v ip"));
            return ip.exit() == 0 ? null : "the 'ip' command (Debian's iproute2) is not installed";
        } catch (final IOException e) {
            return "cannot run id or ip: " + e.getMessage();
        }
    }

    /**
     * Takes down whatever a crashed earlier run left under {@code prefix}, then makes the namespaces for {@code members}
     * members and the gateway host on 10.NET.0.0/24 (clients: 10.NET+1.0.0/30).
     */
    static LabNet up(final String prefix, final int net, final int members) throws IOException {
        final LabNet lab = new LabNet(prefix, net);
        lab.script("down", prefix);
        lab.script("up", prefix, Integer.toString(net), Integer.toString(members));
        return lab;
    }

    /** NAME's address: m0.., g0 on the bridge; "client" the gateway host's address on the clients' link. */
    String address(final String name) throws IOException {
        return script("address", Integer.toString(net), name).strip();
    }

    /** The command that runs {@code command} in NAME's namespace. */
    List<String> inNamespace(final String name, final List<String> command) {
        final List<String> whole = new ArrayList<>(List.of("ip", "netns", "exec", prefix + "-" + name));
        whole.addAll(command);
        return whole;
    }

    /** Cuts NAME (m0.., g0) off the other hosts (its port on the bridge down). */
    void isolate(final String name) throws IOException {
        script("isolate", prefix, name);
    }

    /** Every link up again. */
    void heal() throws IOException {
        script("heal", prefix);
    }

    /** Removes the namespaces and links (kill -9 of anything still in them). */
    void down() throws IOException {
        script("down", prefix);
    }

    private String script(final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of("bash", ProjectRoot.resolve("bin/lib/lab-net.sh").toString()));
        command.addAll(List.of(args));
        final Result result = run(command);
        if (result.exit() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + result.exit() + ": " + result.output());
        }
        return result.output();
    }

    private record Result(int exit, String output) {
    }

    private static Result run(final List<String> command) throws IOException {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within 60 s");
            }
            return new Result(p.exitValue(), output);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
