package io.chronex.engine.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.SessionProxy;
import io.chronex.queues.cluster.ClusterName;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A member's check of each bridge that connects (Aeron's authenticator, on the consensus module's thread): a bridge whose
 * cluster file names another cluster than this member's is challenged with this member's name, so that it can say both, and
 * then refused; a bridge or a member without a name is let in as before ({@link ClusterName}).
 */
final class ClusterNameAuthenticator implements Authenticator {
    private static final byte[] NO_PRINCIPAL = new byte[0];

    private final String name;
    private final Consumer<String> log;
    /** The name each session's credentials carried (null: none), until it is let in or refused. */
    private final Map<Long, String> named = new HashMap<>();

    ClusterNameAuthenticator(final String name, final Consumer<String> log) {
        this.name = name;
        this.log = log;
    }

    @Override
    public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
        named.put(sessionId, ClusterName.decode(encodedCredentials));
    }

    @Override
    public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
        // The answer changes nothing: the names were compared already, the challenge only told the bridge this member's.
    }

    @Override
    public void onConnectedSession(final SessionProxy session, final long nowMs) {
        final String bridges = named.get(session.sessionId());
        if (bridges == null || ClusterName.compare(name, bridges) == ClusterName.Verdict.SAME) {
            if (session.authenticate(NO_PRINCIPAL)) {
                named.remove(session.sessionId());
            }
            return;
        }
        // Named, and this member has another name or none: said to the bridge, which decides (none) or is refused (another).
        session.challenge(ClusterName.encode(name));
    }

    @Override
    public void onChallengedSession(final SessionProxy session, final long nowMs) {
        final String bridges = named.get(session.sessionId());
        if (ClusterName.compare(name, bridges) == ClusterName.Verdict.DIFFERENT) {
            session.reject();
            named.remove(session.sessionId());
            log.accept("refused session " + session.sessionId() + ": its cluster file names cluster '" + bridges + "', this is cluster '"
                + name + "'");
        } else if (session.authenticate(NO_PRINCIPAL)) {
            named.remove(session.sessionId());
        }
    }
}
