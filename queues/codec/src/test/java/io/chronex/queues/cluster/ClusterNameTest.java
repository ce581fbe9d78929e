package io.chronex.queues.cluster;

import io.chronex.runtime.ConfigYaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cluster's name: what the file may say, how it travels in credentials and challenges, and the one decision on it. */
class ClusterNameTest {
    @TempDir
    Path tmp;

    @Test
    void differentNamesRefuseAndAMissingOneIsNotChecked() {
        assertEquals(ClusterName.Verdict.SAME, ClusterName.compare("prod-a", "prod-a"));
        assertEquals(ClusterName.Verdict.DIFFERENT, ClusterName.compare("prod-a", "prod-b"));
        assertEquals(ClusterName.Verdict.UNCHECKED, ClusterName.compare(null, "prod-b"));
        assertEquals(ClusterName.Verdict.UNCHECKED, ClusterName.compare("prod-a", null));
        assertEquals(ClusterName.Verdict.DIFFERENT, ClusterName.compare("prod-a", "Prod-a"), "names are compared exactly");
    }

    @Test
    void aNameTravelsAndAnythingElseReadsAsNone() {
        assertEquals("prod-a", ClusterName.decode(ClusterName.encode("prod-a")));
        assertNull(ClusterName.decode(ClusterName.encode(null)));
        assertNull(ClusterName.decode(new byte[0]), "Aeron's default credentials: none");
        assertNull(ClusterName.decode(null));
        assertNull(ClusterName.decode("someone-else:prod-a".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertNull(ClusterName.decode("chronex-cluster:a b".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertTrue(ClusterName.valid("a.b_c-1"));
        assertFalse(ClusterName.valid(""));
        assertFalse(ClusterName.valid("x".repeat(ClusterName.MAX_LENGTH + 1)));
    }

    @Test
    void theFileMayNameTheClusterAndAWrongNameIsRefusedWithItsLine() throws Exception {
        final String members = "members:\n  - {id: 0, host: localhost, basePort: 9010}\n";
        assertNull(ClusterConfig.load(Files.writeString(tmp.resolve("none.yaml"), members)).name());
        assertEquals("prod-a", ClusterConfig.load(Files.writeString(tmp.resolve("a.yaml"), members + "name: prod-a\n")).name());
        final ConfigYaml.ConfigException bad = assertThrows(ConfigYaml.ConfigException.class,
            () -> ClusterConfig.load(Files.writeString(tmp.resolve("bad.yaml"), members + "name: 'prod a'\n")));
        assertTrue(bad.getMessage().contains("bad.yaml:3") && bad.getMessage().contains("name must be"), bad.getMessage());
    }
}
