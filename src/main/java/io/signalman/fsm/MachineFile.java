package io.signalman.fsm;

import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.ReferenceData;
import io.signalman.json.Located;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads {@code rules/fsm/machines.json}: every machine with its initial state and its states. */
final class MachineFile {

    static final String FILE = "fsm/machines.json";

    private MachineFile() {
    }

    static Map<String, Machine> read(byte[] bytes) throws BundleException {
        List<Located<Machine>> located = ReferenceData.readList(FILE, bytes, "machines", Machine.class);
        Map<String, Machine> out = new LinkedHashMap<>();
        List<BundleError> errors = new ArrayList<>();
        for (Located<Machine> l : located) {
            Machine m = l.value();
            String problem = null;
            if (m.name() == null || m.name().isBlank()) {
                problem = "a machine needs a \"name\"";
            } else if (out.containsKey(m.name())) {
                problem = "machine \"" + m.name() + "\" is declared twice";
            } else if (m.states() == null || m.states().isEmpty()) {
                problem = "machine \"" + m.name() + "\" declares no \"states\"";
            } else if (new HashSet<>(m.states()).size() != m.states().size() || m.states().stream().anyMatch(s -> s == null || s.isBlank())) {
                problem = "machine \"" + m.name() + "\" lists a state twice or a blank state: " + m.states();
            } else if (m.initial() == null || !m.defines(m.initial())) {
                problem = "machine \"" + m.name() + "\" starts in \"" + m.initial() + "\", which is not one of its states " + m.states();
            }
            if (problem != null) {
                errors.add(new BundleError(FILE, l.line(), l.column(), problem));
            } else {
                out.put(m.name(), m);
            }
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return out;
    }
}
