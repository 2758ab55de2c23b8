//! SRDF (MoveIt's Semantic Robot Description Format) self-collision rules: which link pairs a
//! robot's designer allows to touch.
//!
//! Read: `<disable_collisions link1 link2 reason/>` (allowed pair),
//! `<disable_default_collisions link/>` (every pair with that link allowed …) and
//! `<enable_collisions link1 link2/>` (… except these), and `<group_state name group>` with its
//! `<joint name value/>` entries (named configurations), and `<group>`s (planning groups, NAO's
//! protected chains `LArm`, `RArm`, `Arms`) with their `<joint>`, `<link>`, `<chain>` and
//! nested `<group>` members (other elements inside a group are ignored), resolved against the
//! kinematic tree by
//! [`JointGroup`](super::JointGroup). Other elements (end effectors, virtual joints, passive
//! joints) are ignored: they do not change what collides.
//! Reference: the SRDF specification, <http://wiki.ros.org/srdf>.

use crate::error::{Error, Result};
use crate::math::Real;

/// One allowed (or re-enabled) link pair and the line it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkPairRule {
    /// First link name.
    pub link1: String,
    /// Second link name.
    pub link2: String,
    /// The SRDF's reason (`Adjacent`, `Never`, `Default`, …), empty if none.
    pub reason: String,
    /// 1-based line in the SRDF.
    pub line: u32,
}

/// A named configuration (`<group_state>`).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupState {
    /// State name (`ready`).
    pub name: String,
    /// Group it belongs to.
    pub group: String,
    /// Joint values by joint name (radians / metres).
    pub joints: Vec<(String, Real)>,
}

/// One member of a `<group>`.
#[derive(Debug, Clone, PartialEq)]
pub enum GroupMember {
    /// `<joint name/>`: the joint and its child link.
    Joint(String),
    /// `<link name/>`: the link and the joint it hangs from.
    Link(String),
    /// `<chain base_link tip_link/>`: the joints from `base` to `tip` and their child links.
    Chain {
        /// Base link (not itself a member).
        base: String,
        /// Tip link.
        tip: String,
    },
    /// `<group name/>`: every member of another group.
    Group(String),
}

/// A `<group>` as written.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRecord {
    /// Group name (`LArm`).
    pub name: String,
    /// Members, with their lines.
    pub members: Vec<(GroupMember, u32)>,
    /// 1-based line of the `<group>` element.
    pub line: u32,
}

/// The self-collision rules and named states of an SRDF file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Srdf {
    /// Robot name.
    pub name: String,
    /// `disable_collisions` pairs.
    pub disabled: Vec<LinkPairRule>,
    /// `disable_default_collisions` links, with their lines.
    pub disabled_by_default: Vec<(String, u32)>,
    /// `enable_collisions` pairs.
    pub enabled: Vec<LinkPairRule>,
    /// Named configurations.
    pub states: Vec<GroupState>,
    /// Planning groups.
    pub groups: Vec<GroupRecord>,
}

impl Srdf {
    /// Parses SRDF `text`; `file` names it in errors (which give the line and attribute).
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let bad = |line: u32, message: String| Error::File {
            file: file.to_owned(),
            message: format!("line {line}: {message}"),
        };
        let doc = roxmltree::Document::parse(text).map_err(|e| Error::File {
            file: file.to_owned(),
            message: format!("line {}: malformed XML: {e}", e.pos().row),
        })?;
        let root = doc.root_element();
        if root.tag_name().name() != "robot" {
            return Err(bad(
                1,
                format!(
                    "the root element is <{}>, an SRDF's is <robot>",
                    root.tag_name().name()
                ),
            ));
        }
        let line_of = |node: &roxmltree::Node| doc.text_pos_at(node.range().start).row;
        let attribute = |node: &roxmltree::Node, name: &str| -> Result<String> {
            node.attribute(name).map(str::to_owned).ok_or_else(|| {
                bad(
                    line_of(node),
                    format!("<{}> needs a `{name}` attribute", node.tag_name().name()),
                )
            })
        };
        let pair = |node: &roxmltree::Node| -> Result<LinkPairRule> {
            Ok(LinkPairRule {
                link1: attribute(node, "link1")?,
                link2: attribute(node, "link2")?,
                reason: node.attribute("reason").unwrap_or_default().to_owned(),
                line: line_of(node),
            })
        };
        let mut srdf = Srdf {
            name: root.attribute("name").unwrap_or_default().to_owned(),
            ..Srdf::default()
        };
        for node in root.children().filter(roxmltree::Node::is_element) {
            match node.tag_name().name() {
                "disable_collisions" => srdf.disabled.push(pair(&node)?),
                "enable_collisions" => srdf.enabled.push(pair(&node)?),
                "disable_default_collisions" => srdf
                    .disabled_by_default
                    .push((attribute(&node, "link")?, line_of(&node))),
                "group_state" => {
                    let mut state = GroupState {
                        name: attribute(&node, "name")?,
                        group: attribute(&node, "group")?,
                        joints: Vec::new(),
                    };
                    for joint in node.children().filter(|n| n.has_tag_name("joint")) {
                        let value = attribute(&joint, "value")?;
                        let parsed: Real = value.trim().parse().ok().filter(|v: &Real| v.is_finite()).ok_or_else(|| {
                            bad(
                                line_of(&joint),
                                format!("group_state `{}`: joint value `{value}` is not a finite number", state.name),
                            )
                        })?;
                        state.joints.push((attribute(&joint, "name")?, parsed));
                    }
                    srdf.states.push(state);
                }
                "group" => {
                    let mut group = GroupRecord {
                        name: attribute(&node, "name")?,
                        members: Vec::new(),
                        line: line_of(&node),
                    };
                    for member in node.children().filter(roxmltree::Node::is_element) {
                        let parsed = match member.tag_name().name() {
                            "joint" => GroupMember::Joint(attribute(&member, "name")?),
                            "link" => GroupMember::Link(attribute(&member, "name")?),
                            "group" => GroupMember::Group(attribute(&member, "name")?),
                            "chain" => GroupMember::Chain {
                                base: attribute(&member, "base_link")?,
                                tip: attribute(&member, "tip_link")?,
                            },
                            // Not group members in the specification (some files nest other
                            // elements, e.g. `passive_joint`): they change no membership.
                            _ => continue,
                        };
                        group.members.push((parsed, line_of(&member)));
                    }
                    srdf.groups.push(group);
                }
                _ => {}
            }
        }
        Ok(srdf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rules_and_states_with_lines() {
        let text = r#"<?xml version="1.0"?>
<robot name="arm">
  <group name="arm"><chain base_link="a" tip_link="c"/></group>
  <group_state name="home" group="arm"><joint name="j1" value="0.5"/></group_state>
  <disable_collisions link1="a" link2="b" reason="Adjacent"/>
  <disable_default_collisions link="c"/>
  <enable_collisions link1="c" link2="a"/>
</robot>"#;
        let srdf = Srdf::parse(text, "arm.srdf").unwrap();
        assert_eq!(srdf.disabled[0].link2, "b");
        assert_eq!(srdf.disabled[0].line, 5);
        assert_eq!(srdf.disabled_by_default, vec![("c".to_owned(), 6)]);
        assert_eq!(srdf.enabled[0].reason, "");
        assert_eq!(srdf.states[0].joints, vec![("j1".to_owned(), 0.5)]);
        assert_eq!(srdf.groups[0].name, "arm");
        assert_eq!(
            srdf.groups[0].members,
            vec![(
                GroupMember::Chain {
                    base: "a".into(),
                    tip: "c".into()
                },
                3
            )]
        );
    }

    #[test]
    fn errors_name_line_and_attribute() {
        let e = Srdf::parse(
            "<robot>\n<disable_collisions link1=\"a\"/>\n</robot>",
            "x.srdf",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "x.srdf: line 2: <disable_collisions> needs a `link2` attribute"
        );
        let e = Srdf::parse("<robot>\n<group></grop>\n</robot>", "x.srdf")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.srdf: line 2: malformed XML:"), "{e}");
    }
}
