package io.chronex.bridge;

import io.chronex.queues.DataDirectory;
import io.chronex.queues.cluster.ClusterConfig;
import io.chronex.runtime.Args;
import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.IdleStrategies;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.Tool;

import java.nio.file.Path;

/** bin/bridge: links a gateway host's data directory to the cluster until SIGTERM. */
public final class BridgeMain {
    static final String USAGE = """
        Usage: bin/bridge --cluster FILE [--data-dir DIR] [--id N] [--egress-host HOST] [--idle backoff|yield|busy]

        Links a gateway host to the cluster: sends every command of DIR/commands (the host's journal, which
        its gateways and bin/admin append to) to the cluster, and writes the cluster's result for each into
        DIR/events, in journal order, each exactly once, where the gateways read them as they would from
        bin/engine. After a leader change, a restart of this bridge or of the gateways, it resends what the
        cluster did not apply and obtains every result it missed. bin/gateway --cluster starts it.

          --cluster FILE      the cluster's members (config/cluster.yaml ships three on this host)
          --data-dir DIR      the gateway host's data directory (default ./data)
          --id N              this host's id in the cluster's eyes, 1..1000000 (default 1); every gateway
                              host of one cluster needs its own, and keeps it (it names the host's commands)
          --egress-host HOST  the address the members send results to (default localhost; a real host name
                              or address when the members run elsewhere)
          --idle MODE         backoff (default), yield or busy
          --help              this text

        If FILE names the cluster (name:) and the members that answer name another, the bridge sends nothing,
        writes nothing, says both names and the file and exits 2: the host's journal belongs to the cluster FILE
        names. A file or members without a name are not checked.

        SIGTERM (or Ctrl-C) stops it and exits 0; commands appended meanwhile wait in the journal and are sent
        when it runs again. Logs go to standard output and DIR/bridge.log; the pid is in DIR/bridge.pid.
        """;

    private BridgeMain() {
    }

    public static void main(final String[] argv) {
        Tool.run("bridge", USAGE, () -> run(argv));
    }

    private static int run(final String[] argv) throws Exception {
        final Args args = Args.parse(argv, "--cluster", "--data-dir", "--id", "--egress-host", "--idle");
        final int id = args.intNumber("--id", 1, 1, 1_000_000);
        final String idleName = args.choice("--idle", "backoff", IdleStrategies.CHOICES);
        final String egressHost = args.string("--egress-host", "localhost");
        final ClusterConfig cluster = ClusterConfig.load(args.readableFile("--cluster", "config/cluster.yaml"));
        final DataDirectory data = DataDirectory.openForTool(args.path("--data-dir", Path.of("data")));
        final RunFiles run;
        try {
            run = RunFiles.start(data.root(), "bridge");
        } catch (final IllegalStateException e) {
            throw new Args.UsageException(e.getMessage());
        }
        final java.util.concurrent.atomic.AtomicReference<BridgeAgent> agent = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            final int exit = DutyCycle.run("bridge-" + id, () -> {
                agent.set(new BridgeAgent(cluster, id, data, egressHost, idleName, line -> run.log("%s", line)));
                return agent.get();
            }, IdleStrategies.clusterByName(idleName), message -> run.log("%s", message));
            if (agent.get() != null && agent.get().refusal() != null) {
                throw new Args.UsageException(agent.get().refusal());
            }
            return exit;
        } finally {
            run.stop();
        }
    }
}
