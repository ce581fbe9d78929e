package io.chronex.testing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a class's main in a child JVM with this JVM's class path and Chronicle flags, its output in a
 * log file, and stops every process it started on close: tests of multi-process behaviour use real
 * processes (SIGTERM, kill -9) rather than threads.
 */
public final class ChildJvm implements AutoCloseable {
    private final List<Process> started = new ArrayList<>();

    /**
     * The JIT setting of every child JVM: C1 only, no C2. A child here lives seconds and handles at most some thousands of
     * messages, and on 2 cores C2's compiler threads compete with the test's own processes: measured on the 2-core VM, an
     * engine's start to "engine started" took 2.2 s of CPU (1.45 s wall) with the default tiered compilation and 1.4 s
     * (1.08 s wall) with C1 only. The longest child run, ExchangeCoreEndToEndTest's million commands, took as long either way
     * (class 9.5-10.3 s with C1 only, 9.8-9.9 s tiered); a child that ever needs C2 removes this flag from its command.
     */
    public static final String QUICK_JIT = "-XX:TieredStopAtLevel=1";

    /** The java command, the parent's --add-* and Chronicle flags, {@link #QUICK_JIT}, heap and collector, class path and main class. */
    public static List<String> command(final String maxHeap, final String gc, final String mainClass, final List<String> args) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(a -> a.startsWith("--add-") || a.startsWith("-Dchronicle") || a.startsWith("-Ddisable")).toList());
        command.addAll(List.of(QUICK_JIT, "-Xmx" + maxHeap, gc, "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(args);
        return command;
    }

    /** Starts {@code mainClass} with a small heap and the serial collector (tests run on 2 cores), output to {@code log}. */
    public Process start(final String mainClass, final List<String> args, final Path log) throws IOException {
        return start(command("256m", "-XX:+UseSerialGC", mainClass, args), log);
    }

    /** Starts a full command line (see {@link #command}), output and errors to {@code log}. */
    public Process start(final List<String> command, final Path log) throws IOException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(process);
        return process;
    }

    /**
     * Waits until a line of {@code log} contains {@code text} and returns it; fails with the log if the
     * process ends first or 60 s pass.
     */
    public static String awaitLine(final Process process, final Path log, final String text) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                // Its output goes straight to the file, so once it has ended the log is whole.
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
            Thread.sleep(50); // poll interval; the deadline above bounds the wait
        }
        throw new IllegalStateException("'" + text + "' did not appear in " + log + ":\n"
            + (Files.exists(log) ? Files.readString(log) : ""));
    }

    /** SIGKILL to every process still running (kill -9, as a crash would), waiting until each is gone. */
    public void killAll() {
        for (final Process p : started) {
            p.destroyForcibly();
            awaitEnd(p, 10);
        }
        started.clear();
    }

    /**
     * SIGTERM to every process still running, then SIGKILL to any that has not ended 20 s later. An
     * interrupt while waiting kills what is left at once: a test run must not leave processes behind.
     */
    @Override
    public void close() {
        for (final Process p : started) {
            if (p.isAlive()) {
                p.destroy();
                if (!awaitEnd(p, 20)) {
                    p.destroyForcibly();
                    awaitEnd(p, 10);
                }
            }
        }
        started.clear();
    }

    private static boolean awaitEnd(final Process p, final int seconds) {
        try {
            return p.waitFor(seconds, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return false;
        }
    }
}
