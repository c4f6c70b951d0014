package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.signalman.json.Json;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The strict parsers are the request validator, and they refuse exactly what openapi.yaml
 * refuses: every example body is broken at a place its schema constrains (a required field
 * removed, an unknown field added, a value outside its enum, a value of the wrong type), and the
 * server's verdict is compared with that of Vert.x's own OpenAPI validator on the same request.
 * Every object is given an unknown field and every enum each of its values, so a schema looser
 * than the server (a missing {@code additionalProperties: false}, an enum value the server does
 * not know) fails here as surely as a server looser than the schema.
 *
 * <p>NOTE: wrong types are drawn from values no lenient reading accepts (an object or a number for
 * text, a word or a negative number for a count, a word for a boolean). Jackson still coerces "3"
 * to the integer 3, where the document says integer: a client gets the count it meant, and the
 * contract is the stricter of the two.
 */
class OpenApiContractProperties {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static Path data;
    private static ContractServer s;

    /** One broken body: the operation, the body, and the field a refusal must name. */
    record Broken(Contract.BodyOperation op, JsonNode body, String field, String how) {
        @Override
        public String toString() {
            return op.operationId() + " " + how + " " + field + ": " + Json.write(body);
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        data = Files.createTempDirectory("signalman-contract");
        s = new ContractServer(data);
    }

    @AfterContainer
    static void stop() {
        if (s != null) {
            s.close();
        }
    }

    @Property(tries = 400)
    void aBodyTheContractRefusesIsRefusedWith400NamingTheFieldAndNoOther(@ForAll("broken") Broken b) throws Exception {
        HttpResponse<String> referee = s.toReferee(b.op().method(), b.op().path(), b.body());
        HttpResponse<String> server = s.toServer(b.op().method(), b.op().path(), b.body());

        boolean contractRefuses = referee.statusCode() != 204;
        assertEquals(contractRefuses, server.statusCode() == 400, () -> b + "\n referee: " + referee.statusCode() + " "
                + referee.body() + "\n server: " + server.statusCode() + " " + server.body());
        if (contractRefuses) {
            JsonNode error = Json.parse(server.body());
            assertEquals("invalid_input", error.path("error").asText(), b::toString);
            assertEquals(b.field(), error.at("/details/field").asText(), () -> b + " -> " + server.body());
        }
    }

    @Provide
    Arbitrary<Broken> broken() {
        List<Arbitrary<Broken>> all = new ArrayList<>();
        for (Contract.BodyOperation op : s.contract.bodyOperations()) {
            for (Contract.Site site : op.sites()) {
                all.add(breaking(op, site));
            }
        }
        return Arbitraries.oneOf(all);
    }

    private static Arbitrary<Broken> breaking(Contract.BodyOperation op, Contract.Site site) {
        Arbitrary<String> words = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12);
        return switch (site.kind()) {
            case REQUIRED -> Arbitraries.just(new Broken(op, Contract.with(op.example(), site.field(), null), site.field(), "without"));
            case OBJECT -> Combinators.combine(words.filter(w -> !site.known().contains(w)), values())
                    .as((name, value) -> {
                        String field = site.field().isEmpty() ? name : site.field() + "." + name;
                        JsonNode body = site.field().isEmpty() ? op.example().deepCopy() : op.example();
                        JsonNode withField = Contract.with(body, field, value);
                        return new Broken(op, withField, field, "with unknown");
                    });
            case ENUM -> Arbitraries.oneOf(words.filter(w -> !site.allowed().contains(w)), Arbitraries.of(site.allowed()))
                    .map(w -> new Broken(op, Contract.with(op.example(), site.field(), F.textNode(w)), site.field(),
                            site.allowed().contains(w) ? "with another allowed value at" : "outside the enum"));
            case STRING -> Arbitraries.of(F.numberNode(7), F.numberNode(2.5), F.booleanNode(true), Json.object().put("a", 1),
                    Json.array().add("x")).map(v -> new Broken(op, Contract.with(op.example(), site.field(), v), site.field(), "not text"));
            case INTEGER -> Arbitraries.of(F.numberNode(-1), F.textNode("many"), Json.object(), Json.array().add(1))
                    .map(v -> new Broken(op, Contract.with(op.example(), site.field(), v), site.field(), "not a count"));
            case BOOLEAN -> Arbitraries.of(F.textNode("maybe"), Json.object(), Json.array())
                    .map(v -> new Broken(op, Contract.with(op.example(), site.field(), v), site.field(), "not a boolean"));
        };
    }

    private static Arbitrary<JsonNode> values() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(8).map(F::textNode), Arbitraries.integers().map(F::numberNode),
                Arbitraries.just(F.nullNode()), Arbitraries.just(Json.object()));
    }
}
