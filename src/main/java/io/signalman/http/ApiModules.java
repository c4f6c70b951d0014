package io.signalman.http;

import java.util.List;

/** The API modules this build serves, in the order their routes are added. */
final class ApiModules {

    static final List<ApiModule> ALL = List.of(new BrokerApi(), new SignalsApi(), new FsmApi(), new DispatchApi(), new HandoffApi());

    private ApiModules() {
    }
}
