package dashboard.common;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one catalogue (src/Service/Contracts/Catalogue/catalogue.json, docs/architecture.md "How to add"): endpoint
 * variants, payloads, outcome kinds and client technologies. Both builds put the file into their jar as
 * {@code /catalogue.json}; it is read once, with Gson, when the class loads. Shared by the service and the java driver.
 */
public final class Catalogue {
    /** The resource both jars carry. */
    public static final String RESOURCE = "/catalogue.json";

    private static final JsonObject DOCUMENT = load();
    private static final Map<String, Variant> VARIANTS = readVariants();

    private Catalogue() {
    }

    /**
     * One endpoint variant: the catalogue's names for people ({@code transport}, {@code encoding}) and the keys code
     * dispatches on ({@code stack}, {@code codec}, {@code tls}, {@code securityMode}, {@code credentialType}).
     */
    public record Variant(String name, String stack, String transport, String encoding, String securityMode,
            String credentialType, String codec, boolean tls, boolean available) {
        /** True when the variant protects or authenticates anything (security mode other than None). */
        public boolean isSecure() {
            return !"None".equals(securityMode);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** One payload: its id, the operation it calls and its size or count (0 when it has none). */
    public record Payload(String id, String operation, int size) {
    }

    /** Every variant in catalogue order. */
    public static List<Variant> variants() {
        return List.copyOf(VARIANTS.values());
    }

    /** The variant {@code name}, if the catalogue lists it. */
    public static Optional<Variant> variant(String name) {
        return Optional.ofNullable(VARIANTS.get(name));
    }

    /** The variant names client technology {@code client} calls (the catalogue's pairs), in the catalogue's order. */
    public static List<String> variantsOf(String client) {
        for (JsonElement c : DOCUMENT.getAsJsonArray("clients")) {
            if (client.equals(c.getAsJsonObject().get("id").getAsString())) {
                List<String> names = new ArrayList<>();
                c.getAsJsonObject().getAsJsonArray("variants").forEach(v -> names.add(v.getAsString()));
                return Collections.unmodifiableList(names);
            }
        }
        return List.of();
    }

    /** Outcome name → wire number ({@code Success} → 0, ...). */
    public static int outcome(String name) {
        for (JsonElement o : DOCUMENT.getAsJsonArray("outcomes")) {
            if (name.equals(o.getAsJsonObject().get("name").getAsString())) {
                return o.getAsJsonObject().get("code").getAsInt();
            }
        }
        throw new IllegalStateException("the catalogue has no outcome " + name);
    }

    /**
     * The payload {@code id}; its size is the count of its array or repeated string argument, or the value of its int
     * argument (orders, byte counts), or 0.
     */
    public static Payload payload(String id) {
        for (JsonElement p : DOCUMENT.getAsJsonArray("payloads")) {
            JsonObject payload = p.getAsJsonObject();
            if (id.equals(payload.get("id").getAsString())) {
                return new Payload(id, payload.get("operation").getAsString(), size(payload.getAsJsonArray("arguments")));
            }
        }
        throw new IllegalArgumentException("unknown payload id '" + id + "'");
    }

    /** A named value's scalar members (e.g. {@code fields("ProductDetails")}) as member → text, in order; arrays left out. */
    public static Map<String, String> fields(String value) {
        JsonObject named = DOCUMENT.getAsJsonObject("values").getAsJsonObject(value);
        if (named == null) {
            throw new IllegalStateException("the catalogue has no value " + value);
        }
        Map<String, String> members = new LinkedHashMap<>();
        for (JsonElement f : named.getAsJsonArray("fields")) {
            JsonArray pair = f.getAsJsonArray();
            JsonElement text = pair.get(1).getAsJsonObject().entrySet().iterator().next().getValue();
            if (text.isJsonPrimitive()) {
                members.put(pair.get(0).getAsString(), text.getAsString());
            }
        }
        return Collections.unmodifiableMap(members);
    }

    /**
     * The items of a named value's array field (e.g. {@code items("Order", "OrderItems")}), each as member → text, in
     * order.
     */
    public static List<Map<String, String>> items(String value, String field) {
        JsonObject named = DOCUMENT.getAsJsonObject("values").getAsJsonObject(value);
        for (JsonElement f : named.getAsJsonArray("fields")) {
            JsonArray pair = f.getAsJsonArray();
            if (field.equals(pair.get(0).getAsString())) {
                List<Map<String, String>> items = new ArrayList<>();
                for (JsonElement item : pair.get(1).getAsJsonObject().getAsJsonArray("array")) {
                    Map<String, String> members = new LinkedHashMap<>();
                    for (JsonElement m : item.getAsJsonObject().getAsJsonArray("fields")) {
                        JsonArray member = m.getAsJsonArray();
                        members.put(member.get(0).getAsString(),
                                member.get(1).getAsJsonObject().entrySet().iterator().next().getValue().getAsString());
                    }
                    items.add(Collections.unmodifiableMap(members));
                }
                return Collections.unmodifiableList(items);
            }
        }
        throw new IllegalStateException("the catalogue's value " + value + " has no field " + field);
    }

    /** Argument {@code index} of payload {@code id} as its text (a number's digits, a string's characters). */
    public static String argumentText(String id, int index) {
        for (JsonElement p : DOCUMENT.getAsJsonArray("payloads")) {
            JsonObject payload = p.getAsJsonObject();
            if (id.equals(payload.get("id").getAsString())) {
                JsonObject argument = payload.getAsJsonArray("arguments").get(index).getAsJsonObject();
                return argument.entrySet().iterator().next().getValue().getAsString();
            }
        }
        throw new IllegalArgumentException("unknown payload id '" + id + "'");
    }

    /** The expected reply text of payload {@code id} ({@code {"expect": {"string": s, "repeat": n}}}). */
    public static String expectedText(String id) {
        for (JsonElement p : DOCUMENT.getAsJsonArray("payloads")) {
            JsonObject payload = p.getAsJsonObject();
            if (id.equals(payload.get("id").getAsString())) {
                JsonObject expect = payload.getAsJsonObject("reply").getAsJsonObject("expect");
                int repeat = expect.has("repeat") ? expect.get("repeat").getAsInt() : 1;
                return expect.get("string").getAsString().repeat(repeat);
            }
        }
        throw new IllegalArgumentException("unknown payload id '" + id + "'");
    }

    private static int size(JsonArray arguments) {
        if (arguments.isEmpty()) {
            return 0;
        }
        JsonObject first = arguments.get(0).getAsJsonObject();
        if (first.has("count")) {
            return first.get("count").getAsInt();
        }
        if (first.has("repeat")) {
            return first.get("repeat").getAsInt();
        }
        if (first.has("string")) {
            return first.get("string").getAsString().length();
        }
        if (first.has("int") && arguments.size() == 1) {
            return Integer.parseInt(first.get("int").getAsString());
        }
        return 0;
    }

    private static Map<String, Variant> readVariants() {
        Map<String, Variant> map = new LinkedHashMap<>();
        for (JsonElement e : DOCUMENT.getAsJsonArray("variants")) {
            JsonObject v = e.getAsJsonObject();
            String name = v.get("name").getAsString();
            map.put(name, new Variant(name, v.get("stack").getAsString(), v.get("transport").getAsString(),
                    v.get("encoding").getAsString(), v.get("securityMode").getAsString(), v.get("credentialType").getAsString(),
                    v.get("codec").getAsString(), v.get("tls").getAsBoolean(), !v.has("unavailableReason")));
        }
        return Collections.unmodifiableMap(map);
    }

    private static JsonObject load() {
        try (InputStream in = Catalogue.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + RESOURCE + " (rebuild with build.sh)");
            }
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                return new Gson().fromJson(reader, JsonObject.class);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
