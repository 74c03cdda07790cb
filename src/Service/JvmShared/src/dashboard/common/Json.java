package dashboard.common;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the driver protocol lines, the JVM service's ready/fail lines and the host's credentials.json, on Gson
 * (Debian's libgoogle-gson-java): strict parsing of one value into plain Java values, and writing values (records,
 * maps, lists, strings, numbers, booleans) as compact JSON. No JSON is built by string concatenation. Shared by the
 * service and the java driver.
 */
public final class Json {
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

    private Json() {
    }

    /**
     * Parses one JSON value (strict RFC 8259, nothing after it): objects become {@code Map<String,Object>} in document
     * order, arrays {@code List<Object>}, numbers {@code Long} when written without fraction or exponent and in range,
     * else {@code Double}; strings, booleans and null as themselves. Throws {@link IllegalArgumentException} naming the
     * position of the first error.
     */
    public static Object parse(String text) {
        try (JsonReader reader = new JsonReader(new StringReader(text))) {
            reader.setLenient(false);
            JsonElement element = GSON.getAdapter(JsonElement.class).read(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("JSON: unexpected text after the value");
            }
            return plain(element);
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage() != null && iae.getMessage().startsWith("JSON: ")) {
                throw iae;
            }
            throw new IllegalArgumentException("JSON: " + e.getMessage(), e);
        }
    }

    /**
     * {@code value} as one line of compact JSON (no HTML escaping, nulls written): a record becomes an object whose
     * members are its components in declaration order, a map an object in its iteration order, a collection an array;
     * integral numbers are written without a fraction. Records must not nest themselves.
     */
    public static String write(Object value) {
        return GSON.toJson(value);
    }

    /** {@code record} followed by a space and {@code body} as JSON: one protocol line such as {@code level {...}}. */
    public static String record(String record, Object body) {
        return record + " " + write(body);
    }

    private static Object plain(JsonElement element) {
        if (element == null || element.isJsonNull()) {
            return null;
        }
        if (element instanceof JsonObject object) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonElement> entry : object.entrySet()) {
                map.put(entry.getKey(), plain(entry.getValue()));
            }
            return map;
        }
        if (element instanceof JsonArray array) {
            List<Object> list = new ArrayList<>(array.size());
            for (JsonElement item : array) {
                list.add(plain(item));
            }
            return list;
        }
        JsonPrimitive primitive = element.getAsJsonPrimitive();
        if (primitive.isBoolean()) {
            return primitive.getAsBoolean();
        }
        if (primitive.isString()) {
            return primitive.getAsString();
        }
        String number = primitive.getAsString();
        if (number.indexOf('.') < 0 && number.indexOf('e') < 0 && number.indexOf('E') < 0) {
            try {
                return Long.parseLong(number);
            } catch (NumberFormatException outOfRange) {
                return Double.parseDouble(number);
            }
        }
        return Double.parseDouble(number);
    }
}
