package io.chronex.engine.cluster;

import io.chronex.runtime.Args;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/cluster-copy-member's choice of files and its refusals, on a member directory laid out as bin/cluster-node leaves it
 * (file names only; that a member runs on a copy under load is ClusterCatchUpTest's).
 */
class MemberCopyTest {
    @TempDir
    Path tmp;

    private Path member() throws IOException {
        final Path m = tmp.resolve("m2");
        final Path archive = Files.createDirectories(m.resolve("cluster/archive"));
        for (final String name : List.of("chronex-data.properties", "engine.lock", "engine.pid", "engine.log", "commands/x.cq4",
            "events/y.cq4", "snapshots/snapshot-0000000000000001.bin", "ledger", "cluster/member", "cluster/recording.log",
            "cluster/node-state.dat", "cluster/cluster-mark.dat", "cluster/cluster-mark-service-0.dat",
            "cluster/archive/archive.catalog", "cluster/archive/archive-mark.dat", "cluster/archive/0-0.rec",
            "cluster/archive/0-4194304.rec", "cluster/archive/1-0.rec")) {
            Files.createDirectories(m.resolve(name).getParent());
            Files.writeString(m.resolve(name), name);
        }
        assertTrue(Files.isDirectory(archive));
        return m;
    }

    private static List<String> files(final Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void copiesTheLogAndItsCatalogAndNothingOfTheRunningProcessOrTheQueues() throws Exception {
        final Path to = tmp.resolve("m0");
        final MemberCopy.Copied copied = MemberCopy.copy(member(), to, 0);
        assertEquals(List.of("chronex-data.properties", "cluster/archive/0-0.rec", "cluster/archive/0-4194304.rec",
            "cluster/archive/1-0.rec", "cluster/archive/archive.catalog", "cluster/member", "cluster/node-state.dat",
            "cluster/recording.log"), files(to));
        assertEquals("0", Files.readString(to.resolve("cluster/member")).strip(), "the replacement's own id, not member 2's");
        assertEquals("cluster/archive/0-0.rec", Files.readString(to.resolve("cluster/archive/0-0.rec")));
        assertEquals(8, copied.files());
    }

    @Test
    void refusesADirectoryThatIsNotEmptyOrNotAMembersAndWritesNothing() throws Exception {
        final Path from = member();
        final Path used = Files.createDirectories(tmp.resolve("used"));
        Files.writeString(used.resolve("leftover"), "x");
        final Args.UsageException notEmpty = assertThrows(Args.UsageException.class, () -> MemberCopy.copy(from, used, 0));
        assertTrue(notEmpty.getMessage().contains("exists and is not an empty directory"), notEmpty.getMessage());
        assertEquals(List.of("leftover"), files(used));

        final Path notMember = Files.createDirectories(tmp.resolve("plain"));
        final Path to = tmp.resolve("new");
        final Args.UsageException wrong = assertThrows(Args.UsageException.class, () -> MemberCopy.copy(notMember, to, 0));
        assertTrue(wrong.getMessage().contains("is not a cluster member's data directory"), wrong.getMessage());
        assertFalse(Files.exists(to));
    }

    @Test
    void theCommandLineNeedsAllThree() {
        assertEquals(2, MemberCopy.exitCode(new String[] {"--from", "a", "--to", "b"}));
        assertEquals(2, MemberCopy.exitCode(new String[] {"--from", tmp.resolve("none").toString(), "--to", "b", "--id", "1"}));
        assertEquals(0, MemberCopy.exitCode(new String[] {"--help"}));
    }
}
