package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleCompiler;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.util.List;

/**
 * Compiles and lints a folder of rules as {@code signalman check} does (the same compiler, the
 * same lint), keeping the last compiled bundle of each revision so that trying a message or
 * running an impact on a draft that was just saved does not compile it again.
 */
final class Checks {

    /** A check's outcome: the bundle when it compiled, its errors and warnings either way. */
    record Outcome(String revision, RuleBundle bundle, List<BundleError> errors, List<BundleError> warnings) {

        boolean ok() {
            return bundle != null;
        }

        ObjectNode toJson() {
            ObjectNode n = Json.object();
            n.put("ok", ok());
            n.put("revision", revision);
            n.set("errors", Checks.errors(errors));
            n.set("warnings", Checks.errors(warnings));
            return n;
        }
    }

    private final BundleCompiler compiler;
    private final Recent<Outcome> recent = new Recent<>(8);

    Checks(BundleCompiler compiler) {
        this.compiler = compiler;
    }

    /** Blocking: compiles (seconds for a large bundle); call on a worker. */
    Outcome check(BundleFiles files) {
        return recent.get(files.revision(), () -> compile(files));
    }

    private Outcome compile(BundleFiles files) {
        try {
            RuleBundle b = compiler.compile(files);
            return new Outcome(files.revision(), b, List.of(), b.warnings());
        } catch (BundleException e) {
            return new Outcome(files.revision(), null, e.errors(), List.of());
        }
    }

    static ArrayNode errors(List<BundleError> errors) {
        return BundleError.toJson(errors);
    }
}
