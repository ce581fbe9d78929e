package io.chronex.gateway;

import io.chronex.runtime.ConfigYaml.ConfigException;
import io.chronex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

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

    private GatewayConfig load(final String lines) throws Exception {
        Files.copy(ProjectRoot.resolve("config/engine.yaml"), dir.resolve("engine.yaml"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        final Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, "compId: CHRONEX\nport: 0\nengineConfig: engine.yaml\n" + lines
            + "sessions:\n  - {senderCompId: ALICE, account: 1}\n");
        return GatewayConfig.load(file);
    }
}
