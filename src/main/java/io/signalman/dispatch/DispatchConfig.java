package io.signalman.dispatch;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dispatch pack's settings ({@code rules/dispatch/config.json}): the global session
 * dimensions, {@code identity_links}, and model routing. Immutable.
 *
 * @param dimensions the global session dimensions, already filtered ({@link SessionPolicy#normalize})
 * @param threshold  the light model is chosen when the score is below it
 */
public record DispatchConfig(List<String> dimensions, IdentityLinks identityLinks, boolean routingEnabled,
                             String lightModel, String heavyModel, double threshold) {

    public static final String FILE = "dispatch/config.json";
    public static final double DEFAULT_THRESHOLD = 0.35;

    public DispatchConfig {
        dimensions = List.copyOf(dimensions);
    }

    /** The file's shape; every field is optional. */
    record FileForm(Session session, Routing routing) {
    }

    record Session(List<String> dimensions, LinkedHashMap<String, List<String>> identityLinks) {
    }

    record Routing(Boolean enabled, String lightModel, String heavyModel, Double threshold) {
    }

    public static DispatchConfig read(String file, byte[] bytes) throws BundleException {
        FileForm form;
        try {
            form = Json.MAPPER.readValue(bytes, FileForm.class);
        } catch (UnrecognizedPropertyException e) {
            throw error(file, e.getLocation(), "unknown field \"" + e.getPropertyName() + "\"; known fields are "
                    + e.getKnownPropertyIds());
        } catch (JsonProcessingException e) {
            throw error(file, e.getLocation(), e.getOriginalMessage());
        } catch (IOException e) {
            throw new BundleException(new BundleError(file, 0, 0, "cannot read: " + e.getMessage()));
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<BundleError> errors = new ArrayList<>();
        Session session = form == null || form.session() == null ? new Session(null, null) : form.session();
        Routing routing = form == null || form.routing() == null ? new Routing(null, null, null, null) : form.routing();
        Map<String, List<String>> links = session.identityLinks() == null ? Map.of() : session.identityLinks();
        Map<String, String> owner = new HashMap<>();
        links.forEach((canonical, ids) -> {
            if (GoText.trim(canonical).isEmpty()) {
                errors.add(new BundleError(file, lineOf(text, "\"" + canonical + "\""), 0, "an identity link needs a canonical name"));
            }
            for (String id : ids == null ? List.<String>of() : ids) {
                String folded = GoText.fold(id);
                String other = owner.putIfAbsent(folded, canonical);
                if (other != null && !other.equals(canonical)) {
                    errors.add(new BundleError(file, lineOf(text, "\"" + id + "\""), 0, "\"" + id + "\" is linked to \"" + other
                            + "\" and to \"" + canonical + "\"; a sender has one canonical identity"));
                }
            }
        });
        boolean enabled = routing.enabled() == null || routing.enabled();
        String light = routing.lightModel();
        String heavy = routing.heavyModel();
        if (enabled && (light == null || light.isBlank())) {
            errors.add(new BundleError(file, lineOf(text, "\"routing\""), 0, "model routing is enabled but names no light_model"));
        }
        if (heavy == null || heavy.isBlank()) {
            errors.add(new BundleError(file, lineOf(text, "\"routing\""), 0,
                    "routing.heavy_model is required: it is the model of every agent that names none in agents.json"));
        }
        double threshold = routing.threshold() == null ? DEFAULT_THRESHOLD : routing.threshold();
        if (!(threshold > 0 && threshold <= 1)) {
            errors.add(new BundleError(file, lineOf(text, "\"threshold\""), 0, "routing.threshold must be above 0 and at most 1, not "
                    + threshold));
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        List<String> dims = session.dimensions() == null ? List.of() : session.dimensions();
        Map<String, List<String>> cleanLinks = new LinkedHashMap<>();
        links.forEach((k, v) -> cleanLinks.put(k, v == null ? List.of() : v));
        return new DispatchConfig(SessionPolicy.normalize(dims), new IdentityLinks(cleanLinks), enabled,
                light == null ? "" : light, heavy, threshold);
    }

    private static BundleException error(String file, JsonLocation at, String message) {
        return new BundleException(new BundleError(file, at == null ? 0 : Math.max(at.getLineNr(), 0),
                at == null ? 0 : Math.max(at.getColumnNr(), 0), message));
    }

    /** The 1-based line of the first occurrence of {@code needle}, or 0. */
    private static int lineOf(String text, String needle) {
        int at = text.indexOf(needle);
        return at < 0 ? 0 : (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }
}
