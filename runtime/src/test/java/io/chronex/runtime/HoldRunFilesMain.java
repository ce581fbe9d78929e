package io.chronex.runtime;

import java.nio.file.Path;

/** A child process for RunFilesTest: takes ARGS[0]/engine's run files, says so, then waits to be killed. */
public final class HoldRunFilesMain {
    private HoldRunFilesMain() {
    }

    public static void main(final String[] args) throws InterruptedException {
        RunFiles.start(Path.of(args[0]), "engine");
        System.out.println("holding");
        Thread.sleep(Long.MAX_VALUE);
    }
}
