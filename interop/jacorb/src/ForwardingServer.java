// A JacORB server that forwards: `ForwardingServer TARGET` serves an
// object whose every request (and every LocateRequest, which JacORB runs as a
// `_non_existent` request) is forwarded to TARGET by a server request
// interceptor raising PortableInterceptor::ForwardRequest. It prints the
// reference, `interceptor IOR:...`, then `ready`, and serves until it is
// killed.
//
// Servant managers raising PortableServer::ForwardRequest would be the
// usual way, but JacORB 3.9 cannot answer them: its request processor
// passes the missing servant to ORB.set_delegate, which throws BAD_PARAM
// on the request thread, and no reply is ever sent.

import org.omg.CORBA.LocalObject;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Policy;
import org.omg.CORBA.ServerRequest;
import org.omg.PortableInterceptor.ForwardRequest;
import org.omg.PortableInterceptor.ORBInitInfo;
import org.omg.PortableInterceptor.ORBInitializer;
import org.omg.PortableInterceptor.ServerRequestInfo;
import org.omg.PortableInterceptor.ServerRequestInterceptor;
import org.omg.PortableServer.DynamicImplementation;
import org.omg.PortableServer.IdAssignmentPolicyValue;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

public final class ForwardingServer {
    private static final String CUBIT_ID = "IDL:Cubit:1.0";

    /** Where every request is forwarded; set once the ORB is up. */
    private static volatile org.omg.CORBA.Object target;

    /** Forwards every request that reaches the server. */
    static final class Forwarder extends LocalObject implements ServerRequestInterceptor {
        public String name() {
            return "Forwarder";
        }

        public void destroy() {
        }

        public void receive_request_service_contexts(ServerRequestInfo info)
                throws ForwardRequest {
            throw new ForwardRequest(target);
        }

        public void receive_request(ServerRequestInfo info) {
        }

        public void send_reply(ServerRequestInfo info) {
        }

        public void send_exception(ServerRequestInfo info) {
        }

        public void send_other(ServerRequestInfo info) {
        }
    }

    /** Registers the forwarding interceptor (named in the ORB's properties). */
    public static final class Initializer extends LocalObject implements ORBInitializer {
        public void pre_init(ORBInitInfo info) {
            try {
                info.add_server_request_interceptor(new Forwarder());
            } catch (org.omg.PortableInterceptor.ORBInitInfoPackage.DuplicateName e) {
                throw new org.omg.CORBA.INITIALIZE(e.toString());
            }
        }

        public void post_init(ORBInitInfo info) {
        }
    }

    /** The servant the forwarded object has, so that it exists; never invoked. */
    static final class Unreached extends DynamicImplementation {
        public String[] _all_interfaces(POA poa, byte[] oid) {
            return new String[] {CUBIT_ID};
        }

        public void invoke(ServerRequest request) {
            request.set_exception(orb().create_any());
        }

        private ORB orb() {
            return _orb();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ForwardingServer TARGET");
            System.exit(2);
        }
        java.util.Properties properties = System.getProperties();
        properties.setProperty(
            "org.omg.PortableInterceptor.ORBInitializerClass." + Initializer.class.getName(), "");
        ORB orb = ORB.init(new String[0], properties);
        target = orb.string_to_object(args[0]);
        POA root = POAHelper.narrow(orb.resolve_initial_references("RootPOA"));
        POA forwarding = root.create_POA("Forwarding", root.the_POAManager(), new Policy[] {
            root.create_id_assignment_policy(IdAssignmentPolicyValue.USER_ID),
        });
        byte[] oid = "forwarded".getBytes("US-ASCII");
        forwarding.activate_object_with_id(oid, new Unreached());
        root.the_POAManager().activate();
        System.out.println("interceptor "
            + orb.object_to_string(forwarding.create_reference_with_id(oid, CUBIT_ID)));
        System.out.println("ready");
        System.out.flush();
        orb.run();
    }
}
