package io.chronex.gateway.core;

import io.chronex.api.AssetSpec;
import io.chronex.gateway.config.GatewayConfig;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** The symbols and assets a gateway knows, found by the engine's id or by the name a client sends, without allocating. */
public final class Instruments {
    private final GatewayConfig.Symbol[] symbols;
    private final byte[][] symbolNames;
    /** The engine's assets in its file's order, which is the order an inquiry for all of them is answered in. */
    private final AssetSpec[] assets;
    private final byte[][] assetCodes;
    /** "USD, ACME, GLOBEX": for the text of a refusal naming an asset that is not there. */
    private final String assetList;

    public Instruments(final List<GatewayConfig.Symbol> symbols, final List<AssetSpec> assets) {
        this.symbols = symbols.toArray(new GatewayConfig.Symbol[0]);
        this.symbolNames = new byte[this.symbols.length][];
        for (int i = 0; i < this.symbols.length; i++) {
            symbolNames[i] = this.symbols[i].name().getBytes(StandardCharsets.US_ASCII);
        }
        this.assets = assets.toArray(new AssetSpec[0]);
        this.assetCodes = new byte[this.assets.length][];
        final StringBuilder list = new StringBuilder();
        for (int i = 0; i < this.assets.length; i++) {
            assetCodes[i] = this.assets[i].code().getBytes(StandardCharsets.US_ASCII);
            list.append(i == 0 ? "" : ", ").append(this.assets[i].code());
        }
        this.assetList = list.toString();
    }

    public GatewayConfig.Symbol symbolById(final int id) {
        for (final GatewayConfig.Symbol s : symbols) {
            if (s.id() == id) {
                return s;
            }
        }
        return null;
    }

    public AssetSpec assetById(final int id) {
        for (final AssetSpec a : assets) {
            if (a.id() == id) {
                return a;
            }
        }
        return null;
    }

    /** The symbol the request's field names, or null. */
    GatewayConfig.Symbol symbol(final OrderRequest r, final RequestField field) {
        for (int i = 0; i < symbols.length; i++) {
            if (r.valueEquals(field, symbolNames[i])) {
                return symbols[i];
            }
        }
        return null;
    }

    /** The asset the request's field names, or null. */
    AssetSpec asset(final OrderRequest r, final RequestField field) {
        for (int i = 0; i < assets.length; i++) {
            if (r.valueEquals(field, assetCodes[i])) {
                return assets[i];
            }
        }
        return null;
    }

    int assetCount() {
        return assets.length;
    }

    AssetSpec asset(final int index) {
        return assets[index];
    }

    String assetList() {
        return assetList;
    }

    /** The symbol's tick as a decimal ("0.01"). */
    public static String tickText(final GatewayConfig.Symbol s) {
        return java.math.BigDecimal.valueOf(s.tickSize(), s.priceDecimals()).toPlainString();
    }
}
