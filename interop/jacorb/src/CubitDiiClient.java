// A JacORB client of the Cubit interface through the DII (no generated
// stubs): `CubitDiiClient REFERENCE CALLS` resolves the reference (an IOR,
// corbaloc or file:// string), calls cube_octet CALLS times and checks every
// result. With jacorb.locate_on_bind=on (set by the harness) JacORB binds
// with a GIOP LocateRequest first and follows an OBJECT_FORWARD answer.
// Exit status 0 only if every call returned the right cube.

import org.omg.CORBA.Any;
import org.omg.CORBA.ORB;
import org.omg.CORBA.Request;
import org.omg.CORBA.TCKind;

public final class CubitDiiClient {
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: CubitDiiClient REFERENCE CALLS");
            System.exit(2);
        }
        ORB orb = ORB.init(new String[0], System.getProperties());
        int failures = 0;
        try {
            org.omg.CORBA.Object cubit = orb.string_to_object(args[0]);
            int calls = Integer.parseInt(args[1]);
            for (int i = 0; i < calls; i++) {
                byte in = (byte) (i % 7);
                Request request = cubit._request("cube_octet");
                request.add_in_arg().insert_octet(in);
                request.set_return_type(orb.get_primitive_tc(TCKind.tk_octet));
                request.invoke();
                Exception raised = request.env().exception();
                if (raised != null) {
                    System.err.println("cube_octet(" + in + ") raised " + raised);
                    failures++;
                    continue;
                }
                Any result = request.return_value();
                byte got = result.extract_octet();
                byte want = (byte) (in * in * in);
                if (got != want) {
                    System.err.println("cube_octet(" + in + ") = " + got + ", expected " + want);
                    failures++;
                }
            }
            System.out.println("calls " + calls + " failures " + failures);
        } catch (Exception e) {
            System.err.println("CubitDiiClient: " + e);
            e.printStackTrace();
            failures++;
        } finally {
            orb.shutdown(false);
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
