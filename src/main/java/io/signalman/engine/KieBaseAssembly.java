package io.signalman.engine;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import org.drools.base.definitions.InternalKnowledgePackage;
import org.drools.base.definitions.rule.impl.RuleImpl;
import org.drools.model.Model;
import org.drools.modelcompiler.CanonicalKiePackages;
import org.drools.modelcompiler.KieBaseBuilder;
import org.drools.modelcompiler.KiePackagesBuilder;
import org.kie.api.KieBase;
import org.kie.api.KieBaseConfiguration;
import org.kie.api.KieServices;
import org.kie.api.definition.rule.Rule;

/**
 * Assembles a new KieBase from built units, fresh and cached alike; nothing of a live KieBase is
 * touched. Each Model is instantiated anew, so the new KieBase shares only the generated classes
 * (stateless lambdas and metadata) with the bundle it replaces.
 *
 * <p>Drools numbers a rule's load order (its tie-break at equal salience) by its position in its
 * own Model, so rules built in different units, or in different files of one package, would tie
 * in an order no analyst can see. Every rule's load order is set here to its position in the
 * pack (sorted path, then position in file), which is the order analysts are promised for ties.
 */
final class KieBaseAssembly {

    private KieBaseAssembly() {
    }

    /**
     * @param loadOrder every rule's position in the pack, by rule name (names are unique in a pack)
     */
    static KieBase assemble(List<UnitBuilder.Built> units, Map<String, Integer> loadOrder) {
        KieBaseConfiguration conf = KieServices.Factory.get().newKieBaseConfiguration(null,
                KieBaseAssembly.class.getClassLoader());
        KiePackagesBuilder packages = new KiePackagesBuilder(conf);
        for (UnitBuilder.Built unit : units) {
            for (Class<? extends Model> model : unit.models()) {
                packages.addModel(instantiate(model));
            }
        }
        CanonicalKiePackages built = packages.build();
        for (InternalKnowledgePackage pkg : built.getKiePackages()) {
            for (Rule rule : pkg.getRules()) {
                Integer order = loadOrder.get(rule.getName());
                if (order == null) {
                    throw new IllegalStateException("rule \"" + rule.getName() + "\" was built but is not in the pack's index");
                }
                ((RuleImpl) rule).setLoadOrder(order);
            }
        }
        return new KieBaseBuilder(conf).createKieBase(built);
    }

    private static Model instantiate(Class<? extends Model> model) {
        try {
            return model.getDeclaredConstructor().newInstance();
        } catch (InstantiationException | IllegalAccessException | NoSuchMethodException e) {
            throw new IllegalStateException("cannot instantiate generated model " + model.getName(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("generated model " + model.getName() + " failed", e.getCause());
        }
    }
}
