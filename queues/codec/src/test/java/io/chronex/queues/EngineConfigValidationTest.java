package io.chronex.queues;

import io.chronex.runtime.ConfigYaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Engine configurations the engine must refuse rather than start with (issue 24's list): each is a ConfigException naming
 * the file, the line where there is one, and the rule broken, never another exception or a start. Binaries turn
 * ConfigException into exit 2 (Tool.exitCode).
 */
class EngineConfigValidationTest {
    @TempDir
    Path dir;

    private String refusal(final String yaml) throws IOException {
        return refusal(yaml.getBytes(StandardCharsets.UTF_8));
    }

    private String refusal(final byte[] bytes) throws IOException {
        final Path file = Files.write(dir.resolve("bad.yaml"), bytes);
        return assertThrows(ConfigYaml.ConfigException.class, () -> EngineConfigFile.load(file)).getMessage().replace(file.toString(), "F");
    }

    @Test
    void twoSymbolsWithOneName() throws IOException {
        assertEquals("F:3: symbol name ACME is symbol 1's too: a FIX order's Symbol (55) must name one symbol",
            refusal("symbols:\n  - {id: 1, name: ACME}\n  - {id: 2, name: ACME}\n"));
        assertEquals("F:3: symbol name acme is symbol 1's too: a FIX order's Symbol (55) must name one symbol",
            refusal("symbols:\n  - {id: 1, name: ACME}\n  - {id: 2, name: acme}\n"));
        assertEquals("F:2: symbol name '2' must be 1-32 letters, digits, '_', '.', '/' or '-', with a letter",
            refusal("symbols:\n  - {id: 1, name: '2'}\n"));
    }

    @Test
    void anEmptySymbolName() throws IOException {
        assertEquals("F:2: symbol name '' must be 1-32 letters, digits, '_', '.', '/' or '-', with a letter",
            refusal("symbols:\n  - {id: 1, name: ''}\n"));
    }

    @Test
    void aSymbolNameWithASeparator() throws IOException {
        assertEquals("F:2: symbol name 'AC ME=1' must be 1-32 letters, digits, '_', '.', '/' or '-', with a letter",
            refusal("symbols:\n  - {id: 1, name: 'AC ME=1'}\n"));
        assertEquals("F:2: symbol name 'AC\\u0001ME' must be 1-32 letters, digits, '_', '.', '/' or '-', with a letter",
            refusal("symbols:\n  - {id: 1, name: \"AC\\x01ME\"}\n"));
    }

    @Test
    void aNegativeOrZeroAccountId() throws IOException {
        assertEquals("F:4: account id must be 1..9223372036854775807, found -7",
            refusal("symbols:\n  - {id: 1}\naccounts:\n  - {id: -7}\n"));
        assertEquals("F:4: account id must be 1..9223372036854775807, found 0",
            refusal("symbols:\n  - {id: 1}\naccounts:\n  - {id: 0}\n"));
    }

    @Test
    void scalesAndLimitsThatCouldOverflowLongArithmetic() throws IOException {
        assertEquals("F:2: priceScale must be 1..1000000000000000, found 9223372036854775807",
            refusal("symbols:\n  - {id: 1, priceScale: 9223372036854775807}\n"));
        assertEquals("F:2: tickSize must be 1..1000000000000000, found 2000000000000000000",
            refusal("symbols:\n  - {id: 1, tickSize: 2000000000000000000}\n"));
        assertEquals("F:2: lotSize must be 1..1000000000000, found 1000000000001",
            refusal("symbols:\n  - {id: 1, lotSize: 1000000000001}\n"));
        assertEquals("F:2: referencePrice must be 0..1000000000000000, found 1000000000000001",
            refusal("symbols:\n  - {id: 1, referencePrice: 1000000000000001}\n"));
        assertEquals("F:2: priceBandBasisPoints must be 0..1000000, found 1000001",
            refusal("symbols:\n  - {id: 1, priceBandBasisPoints: 1000001}\n"));
        assertEquals("F:4: maxOrderQuantity must be 0..1000000000000, found 9223372036854775807",
            refusal("symbols:\n  - {id: 1}\naccounts:\n  - {id: 1, maxOrderQuantity: 9223372036854775807}\n"));
        assertEquals("F:2: priceScale must be a whole number (prices and quantities are ticks and lots), found '99999999999999999999'",
            refusal("symbols:\n  - {id: 1, priceScale: 99999999999999999999}\n"));
    }

    @Test
    void aBinaryFile() throws IOException {
        final byte[] bytes = new byte[4096];
        new Random(7).nextBytes(bytes);
        final String refusal = refusal(bytes);
        assertTrue(refusal.startsWith("F:1: not a text configuration: "), refusal);
        assertEquals("F:2: not a text configuration: a NUL byte", refusal("symbols:\n  - {id: 1\0}\n"));
    }

    @Test
    void deepNesting() throws IOException {
        final String deep = "symbols: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n";
        final String refusal = refusal(deep);
        assertTrue(refusal.startsWith("F:1: not valid YAML: "), refusal);
        assertTrue(refusal.contains("nesting"), refusal);
    }

    @Test
    void aHugeDocumentIsRefusedBeforeItIsParsed() throws IOException {
        final String huge = "symbols:\n" + "  - {id: 1}\n".repeat(1_000_000);
        assertEquals("F: " + huge.length() + " bytes; a configuration file is at most 1048576 bytes", refusal(huge));
    }

    @Test
    void aDirectoryADeviceOrAMissingFile() throws IOException {
        final Path directory = Files.createDirectories(dir.resolve("conf.yaml"));
        assertEquals(directory + ": a directory, not a configuration file",
            assertThrows(ConfigYaml.ConfigException.class, () -> EngineConfigFile.load(directory)).getMessage());
        assertEquals("/dev/zero: not a regular file",
            assertThrows(ConfigYaml.ConfigException.class, () -> EngineConfigFile.load(Path.of("/dev/zero"))).getMessage());
        final Path missing = dir.resolve("missing.yaml");
        assertEquals(missing + ": no such file",
            assertThrows(ConfigYaml.ConfigException.class, () -> EngineConfigFile.load(missing)).getMessage());
    }
}
