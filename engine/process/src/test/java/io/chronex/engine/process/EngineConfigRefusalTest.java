package io.chronex.engine.process;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/engine with a configuration it must refuse: exit 2, "engine: FILE:LINE: reason" on standard error and no stack trace,
 * and the data directory not created. One case per kind the configuration reader refuses (EngineConfigValidationTest has
 * them all): a rule of the exchange (two symbols with one name), a document the YAML reader must not choke on (20,000-deep
 * nesting, which overflowed the stack before), and a directory given as the file.
 */
class EngineConfigRefusalTest {
    @TempDir
    Path tmp;

    private String refused(final Path config) throws Exception {
        final Path data = tmp.resolve("data");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        final int exit;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            exit = EngineMain.exitCode(new String[] {"--data-dir", data.toString(), "--config", config.toString()});
        } finally {
            System.setErr(original);
        }
        final String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, exit, said);
        assertFalse(said.contains("\tat "), "no stack trace: " + said);
        assertFalse(Files.exists(data), "nothing created: " + data);
        return said;
    }

    @Test
    void twoSymbolsWithOneName() throws Exception {
        final Path config = Files.writeString(tmp.resolve("engine.yaml"), "symbols:\n  - {id: 1, name: ACME}\n  - {id: 2, name: ACME}\n");
        assertTrue(refused(config).startsWith("engine: " + config + ":3: symbol name ACME is symbol 1's too"), refused(config));
    }

    @Test
    void deepNesting() throws Exception {
        final Path config = Files.writeString(tmp.resolve("engine.yaml"), "symbols: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n");
        assertTrue(refused(config).startsWith("engine: " + config + ":1: not valid YAML: nesting deeper than"), refused(config));
    }

    @Test
    void aDirectory() throws Exception {
        final Path config = Files.createDirectories(tmp.resolve("engine.yaml"));
        final String said = refused(config);
        assertTrue(said.startsWith("engine: "), said);
        assertTrue(said.contains(config.toString()), said);
    }
}
