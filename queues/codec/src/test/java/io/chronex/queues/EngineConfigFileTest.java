package io.chronex.queues;

import io.chronex.testing.ProjectRoot;
import io.chronex.runtime.ConfigYaml;
import io.chronex.api.EngineConfig;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped configurations load; every kind of mistake names the file, the line and the reason. */
class EngineConfigFileTest {
    @TempDir
    Path dir;

    private static Path shipped(final String name) {
        return ProjectRoot.resolve("config").resolve(name);
    }

    @Test
    void shippedConfigurationsLoad() throws Exception {
        final EngineConfig bench = EngineConfigFile.load(shipped("exchange-core-bench.yaml"));
        assertEquals(0, bench.riskChecks());
        assertTrue(bench.createAccountsOnFirstUse());
        assertEquals(40000, bench.symbols().get(0).id());
        final EngineConfig demo = EngineConfigFile.load(shipped("engine.yaml"));
        assertEquals(RiskCheck.all(), demo.riskChecks());
        assertFalse(demo.createAccountsOnFirstUse());
        assertEquals(2, demo.symbols().size());
        assertEquals(12, demo.accounts().size(), "accounts 1-4 for people, 101-108 for the load generator");
        assertEquals(SelfTradePrevention.CANCEL_BOTH, demo.accounts().get(2).selfTradePrevention());
    }

    private String failure(final String yaml) throws IOException {
        final Path file = Files.writeString(dir.resolve("bad.yaml"), yaml);
        return assertThrows(ConfigYaml.ConfigException.class, () -> EngineConfigFile.load(file)).getMessage()
            .replace(file.toString(), "F");
    }

    @Test
    void mistakesNameFileLineAndReason() throws IOException {
        assertEquals("F:1: empty configuration; it needs at least 'symbols'", failure(""));
        assertTrue(failure("symbols: [").startsWith("F:1: not valid YAML"), failure("symbols: ["));
        assertEquals("F:1: 'symbols' is missing: the engine needs at least one symbol", failure("riskChecks: all\n"));
        assertTrue(failure("riskChecks: all\nsymbolz: []\n").startsWith("F:2: unknown key 'symbolz'"));
        assertTrue(failure("symbols:\n  - id: 1\n    tickSize: 0.01\n").startsWith("F:3: tickSize must be a whole number"));
        assertEquals("F:2: symbol id must be 1..2147483647 (0 means 'every symbol')", failure("symbols:\n  - id: 0\n"));
        assertEquals("F:3: symbol id 1 is configured twice", failure("symbols:\n  - id: 1\n  - id: 1\n"));
        assertEquals("F:3: lotSize must be 1..1000000000000, found -5", failure("symbols:\n  - id: 1\n    lotSize: -5\n"));
        assertTrue(failure("riskChecks: [HALT, NAP]\nsymbols:\n  - id: 1\n").startsWith("F:1: unknown risk check 'NAP'"));
        assertTrue(failure("symbols:\n  - id: 1\naccounts:\n  - {id: 5, selfTradePrevention: MAYBE}\n")
            .startsWith("F:4: selfTradePrevention 'MAYBE'"));
        assertEquals("F:4: 'id' is missing", failure("symbols:\n  - id: 1\naccounts:\n  - {maxOpenOrders: 3}\n"));
        assertTrue(failure("createAccountsOnFirstUse: yes please\nsymbols:\n  - id: 1\n").startsWith("F:1: expected true or false"));
    }
}
