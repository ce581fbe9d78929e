package io.chronex.gateway.config;

import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The session-layer settings of the gateway file: their defaults, and a clear refusal of values out of range. */
class GatewayConfigTest {
    @TempDir
    Path dir;

    @Test
    void sendingTimeToleranceAndFieldValidationHaveDefaultsAndBounds() throws Exception {
        final GatewayConfig defaults = load("");
        assertEquals(GatewayConfig.DEFAULT_SENDING_TIME_TOLERANCE_SECONDS, defaults.sendingTimeToleranceSeconds());
        assertEquals(120, defaults.sendingTimeToleranceSeconds());
        assertTrue(defaults.validateUnusedFields());
        final GatewayConfig set = load("sendingTimeToleranceSeconds: 0\nvalidateUnusedFields: false\n");
        assertEquals(0, set.sendingTimeToleranceSeconds(), "0 switches the check off");
        assertFalse(set.validateUnusedFields());
        final ConfigException negative = assertThrows(ConfigException.class, () -> load("sendingTimeToleranceSeconds: -5\n"));
        assertTrue(negative.getMessage().contains("gateway.yaml:4") && negative.getMessage().contains("0..86400"),
            negative.getMessage());
        final ConfigException notBoolean = assertThrows(ConfigException.class, () -> load("validateUnusedFields: sometimes\n"));
        assertTrue(notBoolean.getMessage().contains("gateway.yaml:4"), notBoolean.getMessage());
        assertEquals(86_400, load("sendingTimeToleranceSeconds: 86400\n").sendingTimeToleranceSeconds());
        assertThrows(ConfigException.class, () -> load("sendingTimeToleranceSeconds: 86401\n"));
    }

    @Test
    void marketDataIsAllowedPerSessionByDefaultAndItsBacklogLimitHasADefaultAndBounds() throws Exception {
        final GatewayConfig defaults = load("");
        assertTrue(defaults.sessions().get(0).marketData(), "allowed unless the session says otherwise");
        assertEquals(GatewayConfig.DEFAULT_MARKET_DATA_MAX_BACKLOG, defaults.marketDataMaxBacklog());
        final GatewayConfig set = load("marketDataMaxBacklog: 50\n", "  - {senderCompId: ALICE, account: 1, marketData: false}\n"
            + "  - {senderCompId: BOB, account: 2, marketData: true}\n");
        assertFalse(set.sessions().get(0).marketData());
        assertTrue(set.sessions().get(1).marketData());
        assertEquals(50, set.marketDataMaxBacklog());
        final ConfigException zero = assertThrows(ConfigException.class, () -> load("marketDataMaxBacklog: 0\n"));
        assertTrue(zero.getMessage().contains("marketDataMaxBacklog must be 1.."), zero.getMessage());
        final ConfigException notBoolean = assertThrows(ConfigException.class, () -> load("",
            "  - {senderCompId: ALICE, account: 1, marketData: perhaps}\n"));
        assertTrue(notBoolean.getMessage().contains("gateway.yaml:5"), notBoolean.getMessage());
    }

    @Test
    void marketDataMaxSubscriptionsHasADefaultAndBounds() throws Exception {
        assertEquals(GatewayConfig.DEFAULT_MARKET_DATA_MAX_SUBSCRIPTIONS, load("").marketDataMaxSubscriptions());
        assertEquals(7, load("marketDataMaxSubscriptions: 7\n").marketDataMaxSubscriptions());
        final ConfigException zero = assertThrows(ConfigException.class, () -> load("marketDataMaxSubscriptions: 0\n"));
        assertTrue(zero.getMessage().contains("marketDataMaxSubscriptions must be 1.."), zero.getMessage());
    }

    /** The shipped production example loads, and none of its sessions can be logged on as without a password. */
    @Test
    void theProductionExampleHasAPasswordOnEverySession() throws Exception {
        final GatewayConfig production = GatewayConfig.load(ProjectRoot.resolve("config/gateway-production.yaml"));
        assertFalse(production.sessions().isEmpty());
        for (final GatewayConfig.Session s : production.sessions()) {
            assertTrue(s.password() != null && s.password().length() >= 16, s.senderCompId() + " has a password");
        }
        assertEquals("127.0.0.1", production.bind(), "loopback until the operator chooses");
    }

    private String refusal(final String lines, final String sessions) {
        return assertThrows(ConfigException.class, () -> load(lines, sessions)).getMessage().replace(dir.toString(), "D");
    }

    /** A session for an account the engine does not have: every order of it would be rejected, so the gateway refuses to start. */
    @Test
    void aSessionsAccountMustBeOneTheEngineHas() {
        assertEquals("D/gateway.yaml:5: account 999 is not one of the engine's accounts (D/engine.yaml lists 1, 2, 3, 4, 101, 102,"
            + " 103, 104, 105, 106, 107, 108, and does not create accounts on first use): every order of this session would be"
            + " rejected (for an account created with bin/admin while the exchange runs, say unlistedAccount: true)",
            refusal("", "  - {senderCompId: ALICE, account: 999}\n"));
        assertDoesNotThrow(() -> load("", "  - {senderCompId: ALICE, account: 999, unlistedAccount: true}\n"));
    }

    @Test
    void aSessionsAccountMustBePositive() {
        assertEquals("D/gateway.yaml:5: account must be 1..9223372036854775807, found -3",
            refusal("", "  - {senderCompId: ALICE, account: -3}\n"));
        assertEquals("D/gateway.yaml:5: account must be 1..9223372036854775807, found 0",
            refusal("", "  - {senderCompId: ALICE, account: 0}\n"));
    }

    @Test
    void aBindAddressThatIsNotAHostsAddress() {
        final String refusal = refusal("bind: not.a.host.invalid\n", "  - {senderCompId: ALICE, account: 1}\n");
        assertTrue(refusal.startsWith("D/gateway.yaml:4: bind 'not.a.host.invalid' is not an address to listen on: "), refusal);
    }

    @Test
    void anEngineConfigThatIsADirectoryIsRefusedAtItsLine() throws Exception {
        Files.createDirectories(dir.resolve("engine-dir"));
        final Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "compId: CHRONEX\nengineConfig: engine-dir\nsessions:\n  - {senderCompId: ALICE, account: 1}\n");
        assertEquals("D/gateway.yaml:2: engineConfig is not usable: D/engine-dir: a directory, not a configuration file",
            assertThrows(ConfigException.class, () -> GatewayConfig.load(file)).getMessage().replace(dir.toString(), "D"));
    }

    /** A TLS identity that cannot serve is refused at its line when the file is read, before the gateway creates anything. */
    @Test
    void aTlsIdentityThatCannotServeIsRefusedAtItsLine() throws Exception {
        assertEquals("D/gateway.yaml:5: tls: key store D/missing.p12 is not a readable file",
            refusal("tls:\n  keyStore: missing.p12\n  keyStorePassword: x\n", "  - {senderCompId: ALICE, account: 1}\n"));
        final io.chronex.testing.TestCertificates.Generated made = io.chronex.testing.TestCertificates.create(dir, 30);
        final String wrongPassword = refusal("tls: {keyStore: " + made.keyStore().getFileName() + ", keyStorePassword: nope}\n",
            "  - {senderCompId: ALICE, account: 1}\n");
        assertTrue(wrongPassword.startsWith("D/gateway.yaml:4: tls: key store D/localhost.p12 cannot be read ("), wrongPassword);
        assertEquals("CN=localhost", load("tls: {certificate: localhost.crt, privateKey: localhost.key}\n").tls().certificate()
            .getSubjectX500Principal().getName());
        assertEquals(null, load("").tls(), "plain TCP unless tls is given");
    }

    private GatewayConfig load(final String lines) throws Exception {
        return load(lines, "  - {senderCompId: ALICE, account: 1}\n");
    }

    private GatewayConfig load(final String lines, final String sessions) throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), dir.resolve("engine.yaml"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        final Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "compId: CHRONEX\nport: 0\nengineConfig: engine.yaml\n" + lines
            + "sessions:\n" + sessions);
        return GatewayConfig.load(file);
    }
}
