package io.chronex.gateway;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.chronex.testing.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Password guessing against a real gateway over raw sockets: a wrong password and an unknown SenderCompID get the same
 * Logout text (the client cannot tell whether the CompID exists); 100 wrong passwords in a row are mostly refused unheard
 * (the gateway's log says how many it checked); the right password while the CompID is blocked is refused in the same words,
 * and once the operator lifts the blocks (DIR/gateways/1/unblock) the session logs on.
 */
class GatewayLogonFailuresTest {
    private static final String SESSIONS = "  - {senderCompId: ALICE, password: right-one, account: 1}\n";

    @TempDir
    Path tmp;
    private Exchange exchange;

    @AfterEach
    void stop() throws Exception {
        if (exchange != null) {
            exchange.close();
        }
    }

    /** One Logon on a connection of its own: the gateway's answer, Logon (A) or Logout (5) with its Text. */
    private FixText.Fields attempt(final String sender, final String password) throws IOException {
        try (FixText client = FixText.sendLogon(exchange.port, sender, password)) {
            return client.next();
        }
    }

    private long heardWrongPasswords() throws IOException {
        return Files.readString(exchange.dir.resolve("gateway-1.out")).lines()
            .filter(l -> l.contains("session ALICE: wrong or missing password (554) in a Logon")).count();
    }

    @Test
    void guessingIsSlowedAndTellsNothing() throws Exception {
        exchange = new Exchange(tmp, SESSIONS);
        exchange.startEngine();
        exchange.startGateway();

        final FixText.Fields wrong = attempt("ALICE", "guess-1");
        final FixText.Fields unknown = attempt("NOBODY", "guess-1");
        assertEquals("5", wrong.get(35), wrong.toString());
        assertEquals("5", unknown.get(35), unknown.toString());
        assertEquals(FixSession.LOGON_REFUSED, wrong.get(58));
        assertEquals(wrong.get(58), unknown.get(58), "an unknown CompID and a wrong password read the same");

        for (int i = 0; i < 100; i++) {
            final FixText.Fields answer = attempt("ALICE", "guess-" + (i + 2));
            assertEquals(FixSession.LOGON_REFUSED, answer.get(58), answer.toString());
        }
        final long heard = heardWrongPasswords();
        System.out.println("wrong passwords checked by the gateway: " + heard + " of 101");
        // 3 free failures of the address (NOBODY's counted there too), then a block of 1 s, 2 s, 4 s...: 101 tries in a row
        // get at most a handful checked, whatever the machine's speed (a 12th check would need the tries to last half an hour).
        assertTrue(heard >= LogonGuard.FREE_FAILURES && heard <= 12, heard + " of 101 wrong passwords were checked");

        final FixText.Fields blocked = attempt("ALICE", "right-one");
        if ("5".equals(blocked.get(35))) {
            assertEquals(FixSession.LOGON_REFUSED, blocked.get(58), "the right password during the block: the same words");
        } else {
            // Only when the tries above outlasted the last block (seconds): then it was heard, and that is right too.
            System.out.println("the block had ended before the right password came: " + blocked);
        }
        // The operator lifts the blocks (docs/gateway.md): the gateway reads the file at the next Logon, and the session is in.
        Files.writeString(exchange.data.resolve("gateways/1/unblock"), "all\n");
        Await.until("ALICE logged on with the right password once the operator lifted the blocks", 120,
            () -> "A".equals(attempt("ALICE", "right-one").get(35)));
        final String log = Files.readString(exchange.dir.resolve("gateway-1.out"));
        assertTrue(log.contains("Logon(s) not heard since the last such line"), "blocks are logged: " + log);
        final int lifted = log.indexOf("logon blocks: every block lifted");
        assertTrue(lifted >= 0 && lifted < log.indexOf("session ALICE logged on"), "lifted, then logged on:\n" + log);
        assertTrue(!Files.exists(exchange.data.resolve("gateways/1/unblock")), "the request is used once");
    }
}
