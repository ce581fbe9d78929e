package io.chronex.engine.process;

import io.chronex.queues.EngineConfigFile;
import io.chronex.api.Command;
import io.chronex.api.EngineConfig;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.Hops;
import io.chronex.runtime.Args;
import io.chronex.runtime.Tool;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A short run through the engine's start-up, serving, snapshot and recovery paths on a throw-away
 * data directory, for {@code bin/engine} to write its class-data-sharing archive with
 * ({@code -XX:ArchiveClassesAtExit}) once after each build. It is deliberately too short for the
 * JIT to take an interest in anything: on Java 17 an archive written at the end of a busy run
 * (the engine's first real stop, as bin/engine used to do) can carry methods that the JIT then
 * never compiles in any run that maps it, which made replay 2-3x slower (docs/recovery.md).
 *
 * <p>Usage: {@code ClassArchiveTraining [CONFIG.yaml]}; the configuration file, when given, is only
 * parsed (so its parser's classes are archived too).
 */
public final class ClassArchiveTraining {
    static final String USAGE = "Usage: ClassArchiveTraining [CONFIG.yaml]   (run by bin/engine to write its class-data archive)\n";
    private static final int COMMANDS = 40;

    private ClassArchiveTraining() {
    }

    public static void main(final String[] argv) {
        Tool.run("engine", USAGE, () -> {
            final Args args = Args.parse(argv, Set.of(), Set.of(), 1);
            if (!args.operands().isEmpty()) {
                EngineConfigFile.load(Path.of(args.operand(0, "CONFIG.yaml")));
            }
            train();
            return 0;
        });
    }

    private static void train() throws IOException {
        final EngineConfig config = EngineConfig.noRiskChecks(SymbolSpec.plain(1));
        final Path dir = Files.createTempDirectory("chronex-class-archive");
        try {
            final DataDirectory data = DataDirectory.open(dir);
            append(data, 0);
            try (EngineService service = new EngineService(data, config, 0, message -> { }, message -> { })) {
                while (service.poll()) {
                    // answer everything
                }
                service.snapshot();
            }
            append(data, COMMANDS);
            // A restart: snapshot restored, nothing to replay, then serving again.
            try (EngineService service = new EngineService(data, config, 0, message -> { }, message -> { })) {
                while (service.poll()) {
                    // answer everything
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(ClassArchiveTraining::delete);
            }
        }
    }

    private static void append(final DataDirectory data, final int firstId) {
        final Command c = new Command();
        final Hops hops = new Hops();
        try (SingleChronicleQueue commands = data.commands()) {
            final ExcerptAppender appender = commands.createAppender();
            for (int i = 0; i < COMMANDS; i++) {
                final long id = firstId + i + 1;
                switch (i % 4) {
                    case 0, 1 -> c.limit(1 + i % 3, 1, id, i % 2 == 0 ? Side.BUY : Side.SELL, 100, 5);
                    case 2 -> c.move(1 + (i - 1) % 3, id - 1, 101);
                    default -> c.cancel(1 + (i - 3) % 3, id - 3);
                }
                hops.clear();
                try (DocumentContext dc = appender.writingDocument()) {
                    CommandCodec.write(dc.wire().bytes(), c, hops);
                }
            }
        }
    }

    private static void delete(final Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (final IOException e) {
            System.err.println("cannot delete " + path + ": " + e.getMessage());
        }
    }
}
