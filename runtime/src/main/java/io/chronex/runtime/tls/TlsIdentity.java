package io.chronex.runtime.tls;

import io.chronex.runtime.ConfigYaml;
import io.chronex.runtime.ConfigYaml.ConfigException;
import org.yaml.snakeyaml.nodes.Node;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's TLS identity (its private key and certificate chain) from a key store or from PEM files,
 * checked at start so that a wrong password, a key that does not match its certificate or an expired
 * certificate stops the process with the reason instead of failing every client's handshake later.
 */
public final class TlsIdentity {
    /** Offered unless the configuration says otherwise: TLS 1.2 and 1.3, nothing older (RFC 8996 retired 1.0 and 1.1). */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    private static final Pattern PEM_KEY = Pattern.compile("-----BEGIN ([A-Z ]*)PRIVATE KEY-----([^-]*)-----END \\1PRIVATE KEY-----");
    private static final int MAX_FILE_BYTES = 1 << 20;

    static {
        // TLS 1.2 lets a client ask for handshake after handshake on one connection, each a key exchange on the serving
        // thread; nothing a FIX or monitor client needs (TLS 1.3 has no renegotiation at all). An operator's -D wins.
        if (System.getProperty("jdk.tls.rejectClientInitiatedRenegotiation") == null) {
            System.setProperty("jdk.tls.rejectClientInitiatedRenegotiation", "true");
        }
    }

    private final SSLContext context;
    private final X509Certificate certificate;
    private final List<String> protocols;

    private TlsIdentity(final SSLContext context, final X509Certificate certificate, final List<String> protocols) {
        this.context = context;
        this.certificate = certificate;
        this.protocols = protocols;
    }

    /** Why an identity cannot be used, said so that an operator knows what to fix. */
    public static final class TlsException extends Exception {
        private static final long serialVersionUID = 1L;

        TlsException(final String message) {
            super(message);
        }
    }

    /**
     * From a PKCS#12 or JKS key store holding one private key entry (or the one named by {@code alias}).
     *
     * @param password the store's password, which is also the key's (as keytool and openssl pkcs12 make them)
     */
    public static TlsIdentity fromKeyStore(final Path file, final char[] password, final String alias, final List<String> protocols)
        throws TlsException {
        readable(file, "key store");
        final KeyStore store;
        try {
            store = KeyStore.getInstance(file.toFile(), password);
        } catch (final IOException | GeneralSecurityException e) {
            throw new TlsException("key store " + file + " cannot be read (" + e.getMessage() + "): a PKCS#12 or JKS file and"
                + " its password are needed");
        }
        try {
            final String entry = keyEntry(store, file, alias);
            final PrivateKey key = (PrivateKey) store.getKey(entry, password);
            final Certificate[] chain = store.getCertificateChain(entry);
            return build(key, chain, file.toString(), protocols);
        } catch (final GeneralSecurityException e) {
            throw new TlsException("key store " + file + ": the private key cannot be read with the store's password ("
                + e.getMessage() + ")");
        }
    }

    /**
     * From PEM files: the certificate chain (the server's certificate first, as web servers take it) and an
     * unencrypted PKCS#8 private key ({@code BEGIN PRIVATE KEY}).
     */
    public static TlsIdentity fromPem(final Path certificates, final Path privateKey, final List<String> protocols)
        throws TlsException {
        final Certificate[] chain = pemCertificates(certificates);
        final PrivateKey key = pemKey(privateKey);
        return build(key, chain, certificates + " and " + privateKey, protocols);
    }

    /**
     * From a configuration file's {@code tls} mapping: either {@code keyStore} (with {@code keyStorePassword}, and
     * {@code keyAlias} when the store holds several keys) or {@code certificate} and {@code privateKey}, plus optional
     * {@code protocols}. Paths are relative to the file's directory.
     */
    public static TlsIdentity fromYaml(final ConfigYaml yaml, final Node node, final Path baseDir) throws ConfigException {
        final Map<String, Node> m = yaml.mapping(node, Set.of("keyStore", "keyStorePassword", "keyAlias", "certificate",
            "privateKey", "protocols"));
        final List<String> protocols = new ArrayList<>();
        if (m.containsKey("protocols")) {
            for (final Node p : yaml.sequence(m.get("protocols"))) {
                protocols.add(yaml.scalar(p));
            }
        }
        try {
            if (m.containsKey("keyStore")) {
                if (m.containsKey("certificate") || m.containsKey("privateKey")) {
                    throw yaml.error(node, "tls: give either keyStore or certificate and privateKey, not both");
                }
                if (!m.containsKey("keyStorePassword")) {
                    throw yaml.error(node, "tls: keyStorePassword is missing (the key store's password)");
                }
                return fromKeyStore(baseDir.resolve(yaml.scalar(m.get("keyStore"))), yaml.scalar(m.get("keyStorePassword")).toCharArray(),
                    yaml.optionalString(m, "keyAlias", null), protocols);
            }
            if (!m.containsKey("certificate") || !m.containsKey("privateKey")) {
                throw yaml.error(node, "tls: give keyStore (and keyStorePassword), or certificate and privateKey (PEM files)");
            }
            return fromPem(baseDir.resolve(yaml.scalar(m.get("certificate"))), baseDir.resolve(yaml.scalar(m.get("privateKey"))),
                protocols);
        } catch (final TlsException e) {
            throw yaml.error(node, "tls: " + e.getMessage());
        }
    }

    /**
     * A client's engine for {@code host:port} that trusts only the certificates in {@code trustedPem} (the server's own,
     * or the authority that signed it) and checks that the server's certificate names {@code host}, as browsers do.
     */
    public static SSLEngine clientEngine(final Path trustedPem, final String host, final int port) throws TlsException {
        final Certificate[] trusted = pemCertificates(trustedPem);
        try {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < trusted.length; i++) {
                store.setCertificateEntry("trusted-" + i, trusted[i]);
            }
            final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            final SSLEngine engine = context.createSSLEngine(host, port);
            engine.setUseClientMode(true);
            final SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            parameters.setProtocols(DEFAULT_PROTOCOLS.toArray(String[]::new));
            engine.setSSLParameters(parameters);
            return engine;
        } catch (final IOException | GeneralSecurityException e) {
            throw new TlsException(trustedPem + ": " + e.getMessage());
        }
    }

    /** A new engine for one accepted connection, server side, with the configured protocols. */
    public SSLEngine serverEngine() {
        final SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(protocols.toArray(String[]::new));
        return engine;
    }

    /** The context, for servers that take one (the JDK's HttpsServer); its parameters should be {@link #parameters}. */
    public SSLContext context() {
        return context;
    }

    /** The context's default parameters restricted to the configured protocols. */
    public SSLParameters parameters() {
        final SSLParameters parameters = context.getDefaultSSLParameters();
        parameters.setProtocols(protocols.toArray(String[]::new));
        return parameters;
    }

    /** The server's certificate, for the start-up line. */
    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * A warning when the certificate has ended or ends within {@code within} of {@code now} (clients refuse it from then on:
     * it is checked at start only), else null.
     */
    public String expiryWarning(final Instant now, final java.time.Duration within) {
        final Instant end = certificate.getNotAfter().toInstant();
        if (now.isAfter(end)) {
            return "the TLS certificate for " + certificate.getSubjectX500Principal().getName() + " ended at " + end
                + ": every new connection's handshake fails; renew it and restart";
        }
        if (now.plus(within).isAfter(end)) {
            return "the TLS certificate for " + certificate.getSubjectX500Principal().getName() + " ends at " + end + " (in "
                + java.time.Duration.between(now, end).toHours() + " h): renew it and restart before then";
        }
        return null;
    }

    /** One line for a process's start-up output: whose certificate, until when, which protocols. */
    public String describe() {
        return certificate.getSubjectX500Principal().getName() + ", valid until " + certificate.getNotAfter().toInstant() + ", "
            + String.join(" ", protocols);
    }

    private static TlsIdentity build(final PrivateKey key, final Certificate[] chain, final String source, final List<String> asked)
        throws TlsException {
        if (chain == null || chain.length == 0 || !(chain[0] instanceof X509Certificate first)) {
            throw new TlsException(source + ": no X.509 certificate for the private key");
        }
        checkValidity(first, source);
        checkPair(key, first, source);
        final List<String> protocols = asked.isEmpty() ? DEFAULT_PROTOCOLS : List.copyOf(asked);
        try {
            final KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            final char[] transientPassword = new char[0];
            store.setKeyEntry("server", key, transientPassword, chain);
            final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, transientPassword);
            final SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            // The default parameters, not the supported ones: those list protocols jdk.tls.disabledAlgorithms turns off
            // (TLSv1.1, say), which would pass here and then fail every handshake.
            final List<String> enabled = Arrays.asList(context.getDefaultSSLParameters().getProtocols());
            for (final String p : protocols) {
                if (!enabled.contains(p)) {
                    throw new TlsException("protocol '" + p + "' is not one this JVM offers " + enabled);
                }
            }
            return new TlsIdentity(context, first, protocols);
        } catch (final IOException | GeneralSecurityException e) {
            throw new TlsException(source + ": " + e.getMessage());
        }
    }

    private static void checkValidity(final X509Certificate certificate, final String source) throws TlsException {
        final Date now = Date.from(Instant.now());
        if (now.after(certificate.getNotAfter()) || now.before(certificate.getNotBefore())) {
            throw new TlsException(source + ": the certificate for " + certificate.getSubjectX500Principal().getName()
                + " is valid from " + certificate.getNotBefore().toInstant() + " to " + certificate.getNotAfter().toInstant()
                + ", not now: every client would refuse it");
        }
    }

    /** A signature made with the key must verify with the certificate: a key from another pair fails here, not at every handshake. */
    private static void checkPair(final PrivateKey key, final X509Certificate certificate, final String source) throws TlsException {
        final String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> "EdDSA";
            default -> null; // RSASSA-PSS needs parameters of its own: its pair is left to the handshake
        };
        if (algorithm == null) {
            return;
        }
        try {
            final byte[] probe = "chronex key check".getBytes(StandardCharsets.US_ASCII);
            final Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            final byte[] signature = sign.sign();
            final Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certificate.getPublicKey());
            verify.update(probe);
            if (!verify.verify(signature)) {
                throw new TlsException(source + ": the private key is not the certificate's (" + certificate.getSubjectX500Principal()
                    .getName() + ")");
            }
        } catch (final GeneralSecurityException e) {
            throw new TlsException(source + ": the private key is not the certificate's (" + e.getMessage() + ")");
        }
    }

    private static String keyEntry(final KeyStore store, final Path file, final String alias) throws GeneralSecurityException,
        TlsException {
        if (alias != null) {
            if (!store.entryInstanceOf(alias, KeyStore.PrivateKeyEntry.class)) {
                throw new TlsException("key store " + file + " has no private key named '" + alias + "' (it has "
                    + java.util.Collections.list(store.aliases()) + ")");
            }
            return alias;
        }
        final List<String> keys = new ArrayList<>();
        for (final String a : java.util.Collections.list(store.aliases())) {
            if (store.entryInstanceOf(a, KeyStore.PrivateKeyEntry.class)) {
                keys.add(a);
            }
        }
        if (keys.size() != 1) {
            throw new TlsException("key store " + file + " holds " + keys.size() + " private keys " + keys
                + ": name the one to use with keyAlias");
        }
        return keys.get(0);
    }

    private static Certificate[] pemCertificates(final Path file) throws TlsException {
        final byte[] bytes = read(file, "certificate file");
        try {
            final Collection<? extends Certificate> all = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(bytes));
            if (all.isEmpty()) {
                throw new TlsException("certificate file " + file + " holds no certificate (a PEM file with BEGIN CERTIFICATE)");
            }
            return all.toArray(Certificate[]::new);
        } catch (final CertificateException e) {
            throw new TlsException("certificate file " + file + " cannot be read: " + e.getMessage());
        }
    }

    private static PrivateKey pemKey(final Path file) throws TlsException {
        final String text = new String(read(file, "private key file"), StandardCharsets.US_ASCII);
        final Matcher m = PEM_KEY.matcher(text);
        if (!m.find()) {
            throw new TlsException("private key file " + file + " holds no PEM private key (BEGIN PRIVATE KEY)");
        }
        if (!m.group(1).isEmpty()) {
            throw new TlsException("private key file " + file + " holds a '" + m.group(1) + "PRIVATE KEY'; an unencrypted PKCS#8"
                + " key (BEGIN PRIVATE KEY) is needed: convert it with `openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8`");
        }
        final byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(m.group(2).trim());
        } catch (final IllegalArgumentException e) {
            throw new TlsException("private key file " + file + ": the key is not base64 (" + e.getMessage() + ")");
        }
        for (final String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (final InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
                // not this algorithm: the next one
            }
        }
        throw new TlsException("private key file " + file + " holds a key of none of RSA, EC, Ed25519, Ed448, RSASSA-PSS");
    }

    private static void readable(final Path file, final String what) throws TlsException {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new TlsException(what + " " + file + " is not a readable file");
        }
    }

    private static byte[] read(final Path file, final String what) throws TlsException {
        readable(file, what);
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new TlsException(what + " " + file + " is larger than " + MAX_FILE_BYTES + " bytes: not a PEM file");
            }
            return Files.readAllBytes(file);
        } catch (final IOException e) {
            throw new TlsException(what + " " + file + " cannot be read: " + e.getMessage());
        }
    }
}
